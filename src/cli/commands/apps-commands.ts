import type { Command } from 'commander';
import { mentionsSecretCredential } from '../../domain/credentials.js';
import type { Environment } from '../../domain/environment.js';
import { createApplication } from '../../services/tenancy/create-application.js';
import { listApplications } from '../../services/tenancy/list-applications.js';
import { resolveApplication } from '../../services/tenancy/resolve-application.js';
import { retireApplicationSecret } from '../../services/tenancy/retire-application-secret.js';
import { revokeApplication } from '../../services/tenancy/revoke-application.js';
import { rotateApplicationSecret } from '../../services/tenancy/rotate-application-secret.js';
import { CliError } from '../cli-error.js';
import type { CliIo } from '../cli-io.js';
import { environmentOption, jsonOption, parseList } from '../command-options.js';
import { printResult } from '../output.js';
import { withRuntime } from '../with-runtime.js';

export function registerAppsCommands(program: Command, io: CliIo): void {
  const apps = program.command('apps').description('OAuth client applications');
  apps
    .command('create')
    .description('create an application; prints its client id and secret once')
    .requiredOption('--name <name>', 'application name (shown as responseSource)')
    .requiredOption('--clients <names>', 'comma-separated client names it may use', parseList)
    .addOption(environmentOption())
    .addOption(jsonOption())
    .action(async (opts: { name: string; clients: string[]; env: Environment; json?: boolean }) => {
      const created = await withRuntime(io, (rt) =>
        createApplication(rt.deps, { environment: opts.env, name: opts.name, clientNames: opts.clients }),
      );
      printResult(io, !!opts.json, {
        applicationId: created.application.id,
        environment: created.application.environment,
        clientId: created.application.clientId,
        clientSecret: created.clientSecret,
        clientNames: created.clientNames,
      });
      if (!opts.json) io.stderr.write('The client secret is shown only once; store it now.\n');
    });
  apps
    .command('list')
    .description('list applications with their client ids, grants and active secret ids')
    .addOption(jsonOption())
    .action(async (opts: { json?: boolean }) => {
      const apps = await withRuntime(io, (rt) => listApplications(rt.deps));
      const rows = apps.map(({ application: a, clientNames, secretIds }) => ({
        applicationId: a.id,
        name: a.name,
        environment: a.environment,
        clientId: a.clientId,
        status: a.status,
        clientNames,
        secretIds,
      }));
      printResult(io, !!opts.json, rows);
    });
  registerSecretCommands(apps, io);
  apps
    .command('revoke <app>')
    .description('revoke an application and all of its tokens')
    .addOption(jsonOption())
    .action(async (app: string, opts: { json?: boolean }) => {
      const applicationId = await withRuntime(io, async (rt) => {
        const { id } = await resolveApplication(rt.deps, app);
        await revokeApplication(rt.deps, { applicationId: id });
        return id;
      });
      printResult(io, !!opts.json, { applicationId, status: 'revoked' });
    });
}

/** An application's secrets: a second one added beside the first, the oldest retired. */
function registerSecretCommands(apps: Command, io: CliIo): void {
  apps
    .command('rotate-secret <app>')
    .description('add a second active secret; the old one works until retired')
    .addOption(jsonOption())
    .action(async (app: string, opts: { json?: boolean }) => {
      const r = await withRuntime(io, async (rt) => {
        const { id: applicationId } = await resolveApplication(rt.deps, app);
        return { applicationId, ...(await rotateApplicationSecret(rt.deps, { applicationId })) };
      });
      printResult(io, !!opts.json, {
        applicationId: r.applicationId,
        secretId: r.secretId,
        clientSecret: r.clientSecret,
      });
    });
  apps
    .command('retire-secret <app>')
    .description('retire the oldest active secret (or --secret ID) and end the tokens issued with it')
    .option('--secret <secretId>', 'the secret to retire (ids: `rpa apps list`)')
    .addOption(jsonOption())
    .action(async (app: string, opts: { secret?: string; json?: boolean }) => {
      if (opts.secret !== undefined && mentionsSecretCredential(opts.secret))
        throw new CliError(
          '--secret takes the id of a secret, not the secret itself; `rpa apps list` shows the ids',
        );
      const r = await withRuntime(io, async (rt) => {
        const { id: applicationId } = await resolveApplication(rt.deps, app);
        const retired = await retireApplicationSecret(rt.deps, { applicationId, secretId: opts.secret });
        return { applicationId, retiredSecretId: retired.retiredSecretId };
      });
      printResult(io, !!opts.json, r);
    });
}
