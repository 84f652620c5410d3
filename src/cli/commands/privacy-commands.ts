import type { Command } from 'commander';
import type { Environment } from '../../domain/environment.js';
import { IDENTIFIER_KINDS, type IdentifierKind, type Identifiers } from '../../domain/identifiers.js';
import { compactPrivacyTables } from '../../services/privacy/compact-privacy-tables.js';
import { withAdminApi } from '../admin-api.js';
import { CliError } from '../cli-error.js';
import type { CliIo } from '../cli-io.js';
import { environmentOption, jsonOption } from '../command-options.js';
import { printResult } from '../output.js';
import { withRuntime } from '../with-runtime.js';

/** `--identifier emailAddress=a@example.com`, repeatable, with the Privacy API's identifier names. */
function collectIdentifier(raw: string, previous: Identifiers = {}): Identifiers {
  const eq = raw.indexOf('=');
  const kind = raw.slice(0, eq) as IdentifierKind;
  if (eq < 1 || !IDENTIFIER_KINDS.includes(kind)) {
    throw new CliError(`--identifier expects TYPE=VALUE with TYPE one of ${IDENTIFIER_KINDS.join(', ')}`);
  }
  if (previous[kind] !== undefined) throw new CliError(`--identifier ${kind} is given twice`);
  return { ...previous, [kind]: raw.slice(eq + 1) };
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function registerPrivacyCommands(program: Command, io: CliIo): void {
  const privacy = program.command('privacy').description('privacy housekeeping that operators run');
  privacy
    .command('compact')
    .description(
      'rewrite the tables that held erased data (PostgreSQL: VACUUM FULL, locking each table while it runs)',
    )
    .addOption(jsonOption())
    .action(async (opts: { json?: boolean }) => {
      const result = await withRuntime(io, (rt) => compactPrivacyTables(rt.deps, { trigger: 'command' }));
      const skipped = 'skipped' in result ? `skipped: ${result.skipped}` : undefined;
      printResult(io, !!opts.json, result, skipped);
      // Nothing was rewritten by this command: a script must not take it for done.
      if (skipped) io.exitCode = 1;
    });
  privacy
    .command('unsuppress')
    .description(
      'let a forgotten person be imported again in some clients (recorded with the reason, never the identifiers)',
    )
    .requiredOption(
      '--identifier <type=value>',
      'any identifier of the person, e.g. emailAddress=a@example.com (repeatable)',
      collectIdentifier,
    )
    .requiredOption('--reason <text>', 'why the suppression is lifted (kept in the record)')
    .option('--client <name>', 'only in this client instance (repeatable; default: all)', collect)
    .addOption(environmentOption())
    .option('--by <name>', 'who lifts it (default: the caller, cli:<user> or the admin token)')
    .addOption(jsonOption())
    .action(
      async (opts: {
        identifier: Identifiers;
        reason: string;
        client?: string[];
        env: Environment;
        by?: string;
        json?: boolean;
      }) => {
        // The identifiers travel in the body only, never in a URL that proxies may log.
        const result = await withAdminApi(io, (api) =>
          api.create<{ lifted: { id: string; clientName: string; identifiers: number }[] }>(
            `/${opts.env}/suppression-lifts`,
            {
              identifiers: opts.identifier,
              reason: opts.reason,
              ...(opts.by !== undefined ? { liftedBy: opts.by } : {}),
              ...(opts.client ? { clientNames: opts.client } : {}),
            },
          ),
        );
        printResult(
          io,
          !!opts.json,
          result,
          result.lifted
            .map((l) => `lifted in ${l.clientName}: ${l.identifiers} identifier(s), record ${l.id}`)
            .join('\n'),
        );
      },
    );
}
