import type { Command } from 'commander';
import { rotateSigningKey } from '../../services/auth/rotate-signing-key.js';
import type { CliIo } from '../cli-io.js';
import { jsonOption } from '../command-options.js';
import { printResult } from '../output.js';
import { withRuntime } from '../with-runtime.js';

export function registerTokensCommands(program: Command, io: CliIo): void {
  const tokens = program.command('tokens').description('access token signing keys');
  tokens
    .command('rotate-key')
    .description('add a new signing key; older keys verify until their last tokens have expired')
    .option('--retire-previous', 'refuse tokens signed with older keys at once (a leaked key)')
    .addOption(jsonOption())
    .action(async (opts: { retirePrevious?: boolean; json?: boolean }) => {
      const r = await withRuntime(io, (rt) =>
        rotateSigningKey(rt.deps, opts.retirePrevious ? { retirePrevious: true } : {}),
      );
      printResult(io, !!opts.json, {
        keyId: r.keyId,
        previousKeysRetireAt: new Date(r.previousRetireAt).toISOString(),
      });
    });
}
