import { type Command, InvalidArgumentError } from 'commander';
import { mentionsSecretCredential } from '../../domain/credentials.js';
import { ENVIRONMENTS, type Environment } from '../../domain/environment.js';
import { isPasskeyApi, type PasskeyApi } from '../../domain/passkey.js';
import { PASSKEY_VALUE_NOT_ID } from '../../services/tenancy/list-passkeys.js';
import { query, withAdminApi } from '../admin-api.js';
import { CliError } from '../cli-error.js';
import type { CliIo } from '../cli-io.js';
import { jsonOption, positiveIntegerParser } from '../command-options.js';
import { fromEnvironments, inItsEnvironment, namedApplication, namedPasskey } from '../in-its-environment.js';
import { printResult } from '../output.js';
import { onApplication, refuseSecretAsApplication } from './apps-commands.js';

function parseApi(v: string): PasskeyApi {
  if (!isPasskeyApi(v)) throw new InvalidArgumentError('expected response or privacy');
  return v;
}

/** `--expires-at 2027-01-31T00:00:00Z`: a time as ISO 8601 (a date alone is midnight UTC). */
function parseInstant(v: string): string {
  const ms = Date.parse(v);
  if (!Number.isFinite(ms))
    throw new InvalidArgumentError('expected an ISO 8601 time, e.g. 2027-01-31T00:00:00Z');
  return new Date(ms).toISOString();
}

const parsePositiveInt = positiveIntegerParser();

/** A passkey as the admin API answers it (http/admin/passkey-admin-schemas.ts). */
interface AdminPasskey {
  readonly lastUsedAt: string | null;
  readonly [field: string]: unknown;
}

/** For people, a passkey never used says so; --json keeps the API's null. */
const forPeople = (p: AdminPasskey) => ({ ...p, lastUsedAt: p.lastUsedAt ?? 'never' });

/** The options of `create` and `update` that set a passkey's name, limits and expiry. */
interface LimitOptions {
  readonly name?: string;
  readonly rateLimit?: number;
  readonly quota?: number;
  readonly expiresAt?: string;
  readonly json?: boolean;
}

/** The limits `--rate-limit` and `--quota` set and the expiry `--expires-at` sets, leaving out those not given. */
const changesGiven = (opts: LimitOptions) => ({
  ...(opts.name !== undefined ? { name: opts.name } : {}),
  ...(opts.rateLimit !== undefined ? { rateLimitPerMinute: opts.rateLimit } : {}),
  ...(opts.quota !== undefined ? { quotaPerDay: opts.quota } : {}),
  ...(opts.expiresAt !== undefined ? { expiresAt: opts.expiresAt } : {}),
});

/** The admin API's path of a passkey in `env`, refusing a passkey value given as its id. */
function passkeyPath(env: Environment, id: string): string {
  // Refused here, before it would travel in a URL that proxies may log.
  if (mentionsSecretCredential(id)) throw new CliError(PASSKEY_VALUE_NOT_ID);
  return `/${env}/passkeys/${encodeURIComponent(id)}`;
}

export function registerPasskeysCommands(program: Command, io: CliIo): void {
  const passkeys = program.command('passkeys').description('API passkeys with their rate limit and quota');
  passkeys
    .command('create')
    .description('issue a passkey for one API of an application; prints it once')
    .requiredOption('--app <app>', 'owning application: its id or client id')
    .requiredOption('--api <api>', 'response or privacy', parseApi)
    .option('--name <name>', "unique among the application's passkeys; how a configuration file names it")
    .option('--rate-limit <n>', 'requests per minute', parsePositiveInt)
    .option('--quota <n>', 'requests per day', parsePositiveInt)
    .option('--expires-at <time>', 'when it stops working, ISO 8601 (default: never)', parseInstant)
    .addOption(jsonOption())
    .action(async (opts: LimitOptions & { app: string; api: PasskeyApi }) => {
      const body = { api: opts.api, ...changesGiven(opts) };
      const created = await onApplication(io, opts.app, (api, path) =>
        api.create<AdminPasskey>(`${path}/passkeys`, body),
      );
      printResult(io, !!opts.json, opts.json ? created : forPeople(created));
    });
  registerUpdateCommand(passkeys, io);
  passkeys
    .command('list')
    .description('list passkeys (ids, hints, limits, status, last use); never the keys themselves')
    .option('--app <app>', 'only this application: its id or client id')
    .addOption(jsonOption())
    .action(async (opts: { app?: string; json?: boolean }) => {
      const rows = await withAdminApi(io, async (api) => {
        const { app } = opts;
        if (app !== undefined) refuseSecretAsApplication(app);
        return fromEnvironments(ENVIRONMENTS, app === undefined ? [] : [namedApplication(app)], (env) =>
          api.all<AdminPasskey>(`/${env}/passkeys${query({ app })}`),
        );
      });
      if (opts.json) return printResult(io, true, rows);
      printResult(io, false, rows.map(forPeople), rows.length === 0 ? 'no passkeys' : undefined);
    });
}

function registerUpdateCommand(passkeys: Command, io: CliIo): void {
  passkeys
    .command('update <passkeyId>')
    .description('change the name, rate limit, quota or expiry of a passkey, or revoke it')
    .option('--name <name>', "unique among the application's passkeys; how a configuration file names it")
    .option('--rate-limit <n>', 'requests per minute', parsePositiveInt)
    .option('--quota <n>', 'requests per day', parsePositiveInt)
    .option('--expires-at <time>', 'when it stops working, ISO 8601', parseInstant)
    .option('--no-expiry', 'remove its expiry: it works until revoked')
    .option('--revoke', 'revoke the passkey')
    .addOption(jsonOption())
    .action(async (passkeyId: string, opts: LimitOptions & { expiry: boolean; revoke?: boolean }) => {
      if (opts.expiresAt !== undefined && !opts.expiry)
        throw new CliError('give --expires-at TIME or --no-expiry, not both');
      const changes = { ...changesGiven(opts), ...(opts.expiry ? {} : { expiresAt: null }) };
      if (Object.keys(changes).length === 0 && !opts.revoke)
        throw new CliError(
          'nothing to change: give --name N, --rate-limit N, --quota N, --expires-at TIME, --no-expiry or --revoke',
        );
      const updated = await withAdminApi(io, (api) =>
        inItsEnvironment([namedPasskey(passkeyId)], async (env) => {
          const path = passkeyPath(env, passkeyId);
          let answer: AdminPasskey | undefined;
          if (Object.keys(changes).length > 0) answer = await api.call<AdminPasskey>('PATCH', path, changes);
          if (opts.revoke) answer = await api.call<AdminPasskey>('POST', `${path}/revoke`);
          return answer as AdminPasskey;
        }),
      );
      printResult(io, !!opts.json, opts.json ? updated : forPeople(updated));
    });
}
