import { type Command, InvalidArgumentError } from 'commander';
import { isPasskeyApi, type Passkey, type PasskeyApi } from '../../domain/passkey.js';
import { createPasskey } from '../../services/tenancy/create-passkey.js';
import { listPasskeys } from '../../services/tenancy/list-passkeys.js';
import { resolveApplication } from '../../services/tenancy/resolve-application.js';
import { updatePasskey } from '../../services/tenancy/update-passkey.js';
import { CliError } from '../cli-error.js';
import type { CliIo } from '../cli-io.js';
import { jsonOption, positiveIntegerParser } from '../command-options.js';
import { printResult } from '../output.js';
import { withRuntime } from '../with-runtime.js';

function parseApi(v: string): PasskeyApi {
  if (!isPasskeyApi(v)) throw new InvalidArgumentError('expected response or privacy');
  return v;
}

const parsePositiveInt = positiveIntegerParser();

const passkeyView = (p: Passkey) => ({
  id: p.id,
  applicationId: p.applicationId,
  environment: p.environment,
  api: p.api,
  hint: `…${p.keyHint}`,
  rateLimitPerMinute: p.ratePerMinute,
  quotaPerDay: p.quotaPerDay,
  status: p.status,
  default: p.isDefault,
});

/** The limits `--rate-limit` and `--quota` set, leaving out those not given. */
const limitsGiven = (opts: { rateLimit?: number; quota?: number }) => ({
  ...(opts.rateLimit !== undefined ? { ratePerMinute: opts.rateLimit } : {}),
  ...(opts.quota !== undefined ? { quotaPerDay: opts.quota } : {}),
});

export function registerPasskeysCommands(program: Command, io: CliIo): void {
  const passkeys = program.command('passkeys').description('API passkeys with their rate limit and quota');
  passkeys
    .command('create')
    .description('issue a passkey for one API of an application; prints it once')
    .requiredOption('--app <app>', 'owning application: its id or client id')
    .requiredOption('--api <api>', 'response or privacy', parseApi)
    .option('--rate-limit <n>', 'requests per minute', parsePositiveInt)
    .option('--quota <n>', 'requests per day', parsePositiveInt)
    .addOption(jsonOption())
    .action(
      async (opts: { app: string; api: PasskeyApi; rateLimit?: number; quota?: number; json?: boolean }) => {
        const r = await withRuntime(io, async (rt) =>
          createPasskey(rt.deps, {
            applicationId: (await resolveApplication(rt.deps, opts.app)).id,
            api: opts.api,
            ...limitsGiven(opts),
          }),
        );
        printResult(io, !!opts.json, { ...passkeyView(r.passkey), passkey: r.value });
      },
    );
  passkeys
    .command('update <passkeyId>')
    .description('change the rate limit or quota of a passkey, or revoke it')
    .option('--rate-limit <n>', 'requests per minute', parsePositiveInt)
    .option('--quota <n>', 'requests per day', parsePositiveInt)
    .option('--revoke', 'revoke the passkey')
    .addOption(jsonOption())
    .action(
      async (
        passkeyId: string,
        opts: { rateLimit?: number; quota?: number; revoke?: boolean; json?: boolean },
      ) => {
        if (opts.rateLimit === undefined && opts.quota === undefined && !opts.revoke)
          throw new CliError('nothing to change: give --rate-limit N, --quota N or --revoke');
        const p = await withRuntime(io, (rt) =>
          updatePasskey(rt.deps, {
            passkeyId,
            ...limitsGiven(opts),
            ...(opts.revoke ? { revoke: true } : {}),
          }),
        );
        printResult(io, !!opts.json, passkeyView(p));
      },
    );
  passkeys
    .command('list')
    .description('list passkeys (ids, hints, limits, status); never the keys themselves')
    .option('--app <app>', 'only this application: its id or client id')
    .addOption(jsonOption())
    .action(async (opts: { app?: string; json?: boolean }) => {
      const rows = await withRuntime(io, async (rt) =>
        listPasskeys(
          rt.deps,
          opts.app !== undefined ? { applicationId: (await resolveApplication(rt.deps, opts.app)).id } : {},
        ),
      );
      printResult(
        io,
        !!opts.json,
        rows.map(passkeyView),
        rows.length === 0 && !opts.json ? 'no passkeys' : undefined,
      );
    });
}
