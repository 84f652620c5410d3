import type { Command } from 'commander';
import type { Environment } from '../../domain/environment.js';
import { createClient } from '../../services/tenancy/create-client.js';
import { listClients } from '../../services/tenancy/list-clients.js';
import type { CliIo } from '../cli-io.js';
import { environmentOption, jsonOption, parseEnvironment } from '../command-options.js';
import { printResult } from '../output.js';
import { withRuntime } from '../with-runtime.js';

export function registerClientsCommands(program: Command, io: CliIo): void {
  const clients = program.command('clients').description('client instances (e.g. Acme-EN_GB)');
  clients
    .command('add <name>')
    .description('add a client instance')
    .addOption(environmentOption())
    .addOption(jsonOption())
    .action(async (name: string, opts: { env: Environment; json?: boolean }) => {
      const client = await withRuntime(io, (rt) => createClient(rt.deps, { environment: opts.env, name }));
      printResult(io, !!opts.json, { id: client.id, name: client.name, environment: client.environment });
    });
  clients
    .command('list')
    .description('list client instances')
    .option('--env <environment>', 'production or staging', parseEnvironment)
    .addOption(jsonOption())
    .action(async (opts: { env?: Environment; json?: boolean }) => {
      const rows = await withRuntime(io, (rt) =>
        listClients(rt.deps, opts.env ? { environment: opts.env } : {}),
      );
      printResult(
        io,
        !!opts.json,
        rows.map((c) => ({ id: c.id, name: c.name, environment: c.environment })),
      );
    });
}
