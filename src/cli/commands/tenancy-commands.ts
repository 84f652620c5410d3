import { type Command, InvalidArgumentError } from 'commander';
import { mentionsSecretCredential } from '../../domain/credentials.js';
import type { Environment } from '../../domain/environment.js';
import { isEnvironment } from '../../domain/environment.js';
import type { Passkey, PasskeyApi } from '../../domain/passkey.js';
import { isPasskeyApi } from '../../domain/passkey.js';
import { createApplication } from '../../services/tenancy/create-application.js';
import { createClient } from '../../services/tenancy/create-client.js';
import { createPasskey } from '../../services/tenancy/create-passkey.js';
import { listApplications } from '../../services/tenancy/list-applications.js';
import { listClients } from '../../services/tenancy/list-clients.js';
import { listPasskeys } from '../../services/tenancy/list-passkeys.js';
import { resolveApplication } from '../../services/tenancy/resolve-application.js';
import { retireApplicationSecret } from '../../services/tenancy/retire-application-secret.js';
import { revokeApplication } from '../../services/tenancy/revoke-application.js';
import { rotateApplicationSecret } from '../../services/tenancy/rotate-application-secret.js';
import { updatePasskey } from '../../services/tenancy/update-passkey.js';
import { CliError } from '../cli-error.js';
import { printResult } from '../output.js';
import { withRuntime } from '../with-runtime.js';

export function parseEnvironment(v: string): Environment {
  if (!isEnvironment(v)) throw new InvalidArgumentError('expected production or staging');
  return v;
}

function parseApi(v: string): PasskeyApi {
  if (!isPasskeyApi(v)) throw new InvalidArgumentError('expected response or privacy');
  return v;
}

function parsePositiveInt(v: string): number {
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new InvalidArgumentError('expected a whole number from 1');
  return Number(v);
}

function parseList(v: string): string[] {
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

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

export function registerTenancyCommands(program: Command): void {
  const clients = program.command('clients').description('client instances (e.g. Acme-EN_GB)');
  clients
    .command('add <name>')
    .description('add a client instance')
    .option('--env <environment>', 'production or staging', parseEnvironment, 'production' as Environment)
    .option('--json', 'machine-readable output')
    .action(async (name: string, opts: { env: Environment; json?: boolean }) => {
      const client = await withRuntime((rt) => createClient(rt.deps, { environment: opts.env, name }));
      printResult(!!opts.json, { id: client.id, name: client.name, environment: client.environment });
    });
  clients
    .command('list')
    .description('list client instances')
    .option('--env <environment>', 'production or staging', parseEnvironment)
    .option('--json', 'machine-readable output')
    .action(async (opts: { env?: Environment; json?: boolean }) => {
      const rows = await withRuntime((rt) => listClients(rt.deps, opts.env ? { environment: opts.env } : {}));
      printResult(
        !!opts.json,
        rows.map((c) => ({ id: c.id, name: c.name, environment: c.environment })),
      );
    });

  const apps = program.command('apps').description('OAuth client applications');
  apps
    .command('create')
    .description('create an application; prints its client id and secret once')
    .requiredOption('--name <name>', 'application name (shown as responseSource)')
    .requiredOption('--clients <names>', 'comma-separated client names it may use', parseList)
    .option('--env <environment>', 'production or staging', parseEnvironment, 'production' as Environment)
    .option('--json', 'machine-readable output')
    .action(async (opts: { name: string; clients: string[]; env: Environment; json?: boolean }) => {
      const created = await withRuntime((rt) =>
        createApplication(rt.deps, { environment: opts.env, name: opts.name, clientNames: opts.clients }),
      );
      printResult(!!opts.json, {
        applicationId: created.application.id,
        environment: created.application.environment,
        clientId: created.application.clientId,
        clientSecret: created.clientSecret,
        clientNames: created.clientNames,
      });
      if (!opts.json) process.stderr.write('The client secret is shown only once; store it now.\n');
    });
  apps
    .command('list')
    .description('list applications with their client ids, grants and active secret ids')
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }) => {
      const apps = await withRuntime((rt) => listApplications(rt.deps));
      const rows = apps.map(({ application: a, clientNames, secretIds }) => ({
        applicationId: a.id,
        name: a.name,
        environment: a.environment,
        clientId: a.clientId,
        status: a.status,
        clientNames,
        secretIds,
      }));
      printResult(!!opts.json, rows);
    });
  apps
    .command('rotate-secret <app>')
    .description('add a second active secret; the old one works until retired')
    .option('--json', 'machine-readable output')
    .action(async (app: string, opts: { json?: boolean }) => {
      const r = await withRuntime(async (rt) => {
        const { id: applicationId } = await resolveApplication(rt.deps, app);
        return { applicationId, ...(await rotateApplicationSecret(rt.deps, { applicationId })) };
      });
      printResult(!!opts.json, {
        applicationId: r.applicationId,
        secretId: r.secretId,
        clientSecret: r.clientSecret,
      });
    });
  apps
    .command('retire-secret <app>')
    .description('retire the oldest active secret (or --secret ID) and end the tokens issued with it')
    .option('--secret <secretId>', 'the secret to retire (ids: `rpa apps list`)')
    .option('--json', 'machine-readable output')
    .action(async (app: string, opts: { secret?: string; json?: boolean }) => {
      if (opts.secret !== undefined && mentionsSecretCredential(opts.secret))
        throw new CliError(
          '--secret takes the id of a secret, not the secret itself; `rpa apps list` shows the ids',
        );
      const r = await withRuntime(async (rt) => {
        const { id: applicationId } = await resolveApplication(rt.deps, app);
        const retired = await retireApplicationSecret(rt.deps, { applicationId, secretId: opts.secret });
        return { applicationId, retiredSecretId: retired.retiredSecretId };
      });
      printResult(!!opts.json, r);
    });
  apps
    .command('revoke <app>')
    .description('revoke an application and all of its tokens')
    .option('--json', 'machine-readable output')
    .action(async (app: string, opts: { json?: boolean }) => {
      const applicationId = await withRuntime(async (rt) => {
        const { id } = await resolveApplication(rt.deps, app);
        await revokeApplication(rt.deps, { applicationId: id });
        return id;
      });
      printResult(!!opts.json, { applicationId, status: 'revoked' });
    });

  const passkeys = program.command('passkeys').description('API passkeys with their rate limit and quota');
  passkeys
    .command('create')
    .description('issue a passkey for one API of an application; prints it once')
    .requiredOption('--app <app>', 'owning application: its id or client id')
    .requiredOption('--api <api>', 'response or privacy', parseApi)
    .option('--rate-limit <n>', 'requests per minute', parsePositiveInt)
    .option('--quota <n>', 'requests per day', parsePositiveInt)
    .option('--json', 'machine-readable output')
    .action(
      async (opts: { app: string; api: PasskeyApi; rateLimit?: number; quota?: number; json?: boolean }) => {
        const r = await withRuntime(async (rt) =>
          createPasskey(rt.deps, {
            applicationId: (await resolveApplication(rt.deps, opts.app)).id,
            api: opts.api,
            ...(opts.rateLimit !== undefined ? { ratePerMinute: opts.rateLimit } : {}),
            ...(opts.quota !== undefined ? { quotaPerDay: opts.quota } : {}),
          }),
        );
        printResult(!!opts.json, { ...passkeyView(r.passkey), passkey: r.value });
      },
    );
  passkeys
    .command('update <passkeyId>')
    .description('change the rate limit or quota of a passkey, or revoke it')
    .option('--rate-limit <n>', 'requests per minute', parsePositiveInt)
    .option('--quota <n>', 'requests per day', parsePositiveInt)
    .option('--revoke', 'revoke the passkey')
    .option('--json', 'machine-readable output')
    .action(
      async (
        passkeyId: string,
        opts: { rateLimit?: number; quota?: number; revoke?: boolean; json?: boolean },
      ) => {
        if (opts.rateLimit === undefined && opts.quota === undefined && !opts.revoke)
          throw new CliError('nothing to change: give --rate-limit N, --quota N or --revoke');
        const p = await withRuntime((rt) =>
          updatePasskey(rt.deps, {
            passkeyId,
            ...(opts.rateLimit !== undefined ? { ratePerMinute: opts.rateLimit } : {}),
            ...(opts.quota !== undefined ? { quotaPerDay: opts.quota } : {}),
            ...(opts.revoke ? { revoke: true } : {}),
          }),
        );
        printResult(!!opts.json, passkeyView(p));
      },
    );
  passkeys
    .command('list')
    .description('list passkeys (ids, hints, limits, status); never the keys themselves')
    .option('--app <app>', 'only this application: its id or client id')
    .option('--json', 'machine-readable output')
    .action(async (opts: { app?: string; json?: boolean }) => {
      const rows = await withRuntime(async (rt) =>
        listPasskeys(
          rt.deps,
          opts.app !== undefined ? { applicationId: (await resolveApplication(rt.deps, opts.app)).id } : {},
        ),
      );
      printResult(
        !!opts.json,
        rows.map(passkeyView),
        rows.length === 0 && !opts.json ? 'no passkeys' : undefined,
      );
    });
}
