import { type Command, InvalidArgumentError } from 'commander';
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
import { retireApplicationSecret } from '../../services/tenancy/retire-application-secret.js';
import { revokeApplication } from '../../services/tenancy/revoke-application.js';
import { rotateApplicationSecret } from '../../services/tenancy/rotate-application-secret.js';
import { updatePasskey } from '../../services/tenancy/update-passkey.js';
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
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }) => {
      const apps = await withRuntime((rt) => listApplications(rt.deps));
      const rows = apps.map(({ application: a, clientNames }) => ({
        applicationId: a.id,
        name: a.name,
        environment: a.environment,
        clientId: a.clientId,
        status: a.status,
        clientNames,
      }));
      printResult(!!opts.json, rows);
    });
  apps
    .command('rotate-secret <applicationId>')
    .description('add a second active secret; the old one works until retired')
    .option('--json', 'machine-readable output')
    .action(async (applicationId: string, opts: { json?: boolean }) => {
      const r = await withRuntime((rt) => rotateApplicationSecret(rt.deps, { applicationId }));
      printResult(!!opts.json, { applicationId, secretId: r.secretId, clientSecret: r.clientSecret });
    });
  apps
    .command('retire-secret <applicationId>')
    .description('retire the oldest active secret (or --secret ID) and end the tokens issued with it')
    .option('--secret <secretId>', 'the secret to retire')
    .option('--json', 'machine-readable output')
    .action(async (applicationId: string, opts: { secret?: string; json?: boolean }) => {
      const r = await withRuntime((rt) =>
        retireApplicationSecret(rt.deps, { applicationId, secretId: opts.secret }),
      );
      printResult(!!opts.json, { applicationId, retiredSecretId: r.retiredSecretId });
    });
  apps
    .command('revoke <applicationId>')
    .description('revoke an application and all of its tokens')
    .option('--json', 'machine-readable output')
    .action(async (applicationId: string, opts: { json?: boolean }) => {
      await withRuntime((rt) => revokeApplication(rt.deps, { applicationId }));
      printResult(!!opts.json, { applicationId, status: 'revoked' });
    });

  const passkeys = program.command('passkeys').description('API passkeys with their rate limit and quota');
  passkeys
    .command('create')
    .description('issue a passkey for one API of an application; prints it once')
    .requiredOption('--app <applicationId>', 'owning application')
    .requiredOption('--api <api>', 'response or privacy', parseApi)
    .option('--rate-limit <n>', 'requests per minute', parsePositiveInt)
    .option('--quota <n>', 'requests per day', parsePositiveInt)
    .option('--json', 'machine-readable output')
    .action(
      async (opts: { app: string; api: PasskeyApi; rateLimit?: number; quota?: number; json?: boolean }) => {
        const r = await withRuntime((rt) =>
          createPasskey(rt.deps, {
            applicationId: opts.app,
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
    .option('--app <applicationId>', 'only this application')
    .option('--json', 'machine-readable output')
    .action(async (opts: { app?: string; json?: boolean }) => {
      const rows = await withRuntime((rt) =>
        listPasskeys(rt.deps, opts.app ? { applicationId: opts.app } : {}),
      );
      printResult(!!opts.json, rows.map(passkeyView));
    });
}
