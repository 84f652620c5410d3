import { type Command, InvalidArgumentError } from 'commander';
import { ADMIN_SCOPES, type AdminScope, parseAdminScopes } from '../../domain/admin-scope.js';
import type { AdminToken } from '../../domain/admin-token.js';
import { isoOrNull } from '../../domain/instant.js';
import type { Runtime } from '../../runtime.js';
import { createAdminToken } from '../../services/admin/create-admin-token.js';
import { listAdminTokens } from '../../services/admin/list-admin-tokens.js';
import { revokeAdminToken } from '../../services/admin/revoke-admin-token.js';
import { CliError } from '../cli-error.js';
import type { CliIo } from '../cli-io.js';
import { jsonOption } from '../command-options.js';
import { printResult } from '../output.js';
import { withRuntime } from '../with-runtime.js';

const DAY_MS = 86_400_000;

/**
 * Admin tokens are made and ended with database access only: a token that could mint tokens would
 * make every scope a path to all of them. Refused where `rpa` would otherwise call the admin API,
 * rather than writing a token into a database the listener never reads.
 */
function onDatabase<T>(io: CliIo, work: (runtime: Runtime) => Promise<T>): Promise<T> {
  if (io.env.RPA_ADMIN_URL?.trim())
    throw new CliError(
      'admin tokens are managed with database access only: unset RPA_ADMIN_URL and run this where DATABASE_URL reaches the database',
    );
  return withRuntime(io, work);
}

function parseScopes(v: string): AdminScope[] {
  const parsed = parseAdminScopes(v);
  if ('unknown' in parsed)
    throw new InvalidArgumentError(
      `unknown scope ${parsed.unknown.join(', ')}; one of ${ADMIN_SCOPES.join(', ')}`,
    );
  return parsed.scopes;
}

/** `--expires-in 90d`: whole days, from 1 to 366. */
function parseLifetime(v: string): number {
  const m = /^(\d+)d$/.exec(v.trim());
  const days = m ? Number(m[1]) : Number.NaN;
  if (!(days >= 1 && days <= 366))
    throw new InvalidArgumentError('expected whole days from 1d to 366d, e.g. 90d');
  return days * DAY_MS;
}

function tokenView(t: AdminToken & { state?: string }) {
  return {
    id: t.id,
    name: t.name,
    scopes: t.scopes.join(' '),
    keyHint: `…${t.keyHint}`,
    ...(t.state ? { state: t.state } : {}),
    createdAt: isoOrNull(t.createdAt),
    expiresAt: isoOrNull(t.expiresAt),
    revokedAt: isoOrNull(t.revokedAt),
  };
}

export function registerAdminTokensCommands(program: Command, io: CliIo): void {
  const tokens = program.command('admin-tokens').description('credentials of the admin API (ADMIN_PORT)');
  tokens
    .command('create')
    .description('issue an admin token; prints it once')
    .requiredOption('--name <name>', 'who or what uses it, e.g. "onboarding job"')
    .requiredOption('--scopes <list>', `comma-separated: ${ADMIN_SCOPES.join(', ')}`, parseScopes)
    .option('--expires-in <days>', 'lifetime in days, e.g. 90d (none: until revoked)', parseLifetime)
    .addOption(jsonOption())
    .action(async (opts: { name: string; scopes: AdminScope[]; expiresIn?: number; json?: boolean }) => {
      const r = await onDatabase(io, (rt) =>
        createAdminToken(rt.deps, {
          name: opts.name,
          scopes: opts.scopes,
          ...(opts.expiresIn === undefined ? {} : { lifetimeMs: opts.expiresIn }),
        }),
      );
      printResult(io, !!opts.json, { ...tokenView(r.token), token: r.value });
      if (!opts.json) io.stderr.write('The admin token is shown only once; store it now.\n');
    });
  tokens
    .command('list')
    .description('list admin tokens with their state (never their values)')
    .addOption(jsonOption())
    .action(async (opts: { json?: boolean }) => {
      const rows = await onDatabase(io, (rt) => listAdminTokens(rt.deps));
      if (!opts.json && rows.length === 0) return printResult(io, false, null, 'no admin tokens');
      printResult(io, !!opts.json, rows.map(tokenView));
    });
  tokens
    .command('revoke <id>')
    .description('revoke an admin token at once')
    .addOption(jsonOption())
    .action(async (id: string, opts: { json?: boolean }) => {
      await onDatabase(io, (rt) => revokeAdminToken(rt.deps, { tokenId: id }));
      printResult(io, !!opts.json, { revoked: id });
    });
}
