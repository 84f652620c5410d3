import type { Command } from 'commander';
import { withAdminApi } from '../admin-api.js';
import type { CliIo } from '../cli-io.js';
import { jsonOption } from '../command-options.js';
import { printResult } from '../output.js';

export function registerTokensCommands(program: Command, io: CliIo): void {
  const tokens = program.command('tokens').description('access token signing keys');
  tokens
    .command('rotate-key')
    .description('add a new signing key; older keys verify until their last tokens have expired')
    .option('--retire-previous', 'refuse tokens signed with older keys at once (a leaked key)')
    .addOption(jsonOption())
    .action(async (opts: { retirePrevious?: boolean; json?: boolean }) => {
      const rotated = await withAdminApi(io, (api) =>
        api.create('/signing-keys', opts.retirePrevious ? { retirePrevious: true } : {}),
      );
      printResult(io, !!opts.json, rotated);
    });
}
