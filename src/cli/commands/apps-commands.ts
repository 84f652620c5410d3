import type { Command } from 'commander';
import { mentionsSecretCredential } from '../../domain/credentials.js';
import { ENVIRONMENTS, type Environment } from '../../domain/environment.js';
import { SECRET_NOT_APPLICATION } from '../../services/tenancy/resolve-application.js';
import { type AdminApi, withAdminApi } from '../admin-api.js';
import { CliError } from '../cli-error.js';
import type { CliIo } from '../cli-io.js';
import { environmentOption, jsonOption, parseList } from '../command-options.js';
import { fromEnvironments, inItsEnvironment, namedApplication } from '../in-its-environment.js';
import { printResult } from '../output.js';

/** A secret given as an application's id or client id, refused before it would travel in a URL that proxies may log. */
export function refuseSecretAsApplication(app: string): void {
  if (mentionsSecretCredential(app)) throw new CliError(SECRET_NOT_APPLICATION);
}

/** `work` on the admin API's path of an application, in whichever environment it is. */
export function onApplication<T>(io: CliIo, app: string, work: (api: AdminApi, path: string) => Promise<T>) {
  return withAdminApi(io, (api) =>
    inItsEnvironment([namedApplication(app)], (env) => {
      refuseSecretAsApplication(app);
      return work(api, `/${env}/applications/${encodeURIComponent(app)}`);
    }),
  );
}

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
      const created = await withAdminApi(io, (api) =>
        api.create(`/${opts.env}/applications`, { name: opts.name, clientNames: opts.clients }),
      );
      printResult(io, !!opts.json, created);
      if (!opts.json) io.stderr.write('The client secret is shown only once; store it now.\n');
    });
  apps
    .command('list')
    .description('list applications with their client ids, grants and active secret ids')
    .addOption(jsonOption())
    .action(async (opts: { json?: boolean }) => {
      const rows = await withAdminApi(io, (api) =>
        fromEnvironments(ENVIRONMENTS, [], (env) => api.all(`/${env}/applications`)),
      );
      printResult(io, !!opts.json, rows);
    });
  registerSecretCommands(apps, io);
  apps
    .command('revoke <app>')
    .description('revoke an application and all of its tokens')
    .addOption(jsonOption())
    .action(async (app: string, opts: { json?: boolean }) => {
      const revoked = await onApplication(io, app, (api, path) => api.call('POST', `${path}/revoke`));
      printResult(io, !!opts.json, revoked);
    });
}

/** An application's secrets: a second one added beside the first, the oldest retired. */
function registerSecretCommands(apps: Command, io: CliIo): void {
  apps
    .command('rotate-secret <app>')
    .description('add a second active secret; the old one works until retired')
    .addOption(jsonOption())
    .action(async (app: string, opts: { json?: boolean }) => {
      const created = await onApplication(io, app, (api, path) => api.create(`${path}/secrets`));
      printResult(io, !!opts.json, created);
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
      const body = opts.secret !== undefined ? { secretId: opts.secret } : {};
      const retired = await onApplication(io, app, (api, path) =>
        api.call('POST', `${path}/retire-secret`, body),
      );
      printResult(io, !!opts.json, retired);
    });
}
