import type { Command } from 'commander';
import { ENVIRONMENTS, type Environment } from '../../domain/environment.js';
import { withAdminApi } from '../admin-api.js';
import type { CliIo } from '../cli-io.js';
import { environmentOption, jsonOption, parseEnvironment } from '../command-options.js';
import { fromEnvironments } from '../in-its-environment.js';
import { printResult } from '../output.js';

export function registerClientsCommands(program: Command, io: CliIo): void {
  const clients = program.command('clients').description('client instances (e.g. Acme-EN_GB)');
  clients
    .command('add <name>')
    .description('add a client instance')
    .addOption(environmentOption())
    .addOption(jsonOption())
    .action(async (name: string, opts: { env: Environment; json?: boolean }) => {
      const client = await withAdminApi(io, (api) => api.create(`/${opts.env}/clients`, { name }));
      printResult(io, !!opts.json, client);
    });
  clients
    .command('list')
    .description('list client instances')
    .option('--env <environment>', 'production or staging', parseEnvironment)
    .addOption(jsonOption())
    .action(async (opts: { env?: Environment; json?: boolean }) => {
      const rows = await withAdminApi(io, (api) =>
        fromEnvironments(opts.env ? [opts.env] : ENVIRONMENTS, [], (env) => api.all(`/${env}/clients`)),
      );
      printResult(io, !!opts.json, rows);
    });
}
