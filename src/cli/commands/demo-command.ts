import type { Command } from 'commander';
import { ENVIRONMENTS } from '../../domain/environment.js';
import { seedDemo } from '../../services/tenancy/seed-demo.js';
import type { CliIo } from '../cli-io.js';
import { jsonOption } from '../command-options.js';
import { printResult } from '../output.js';
import { withRuntime } from '../with-runtime.js';

export function registerDemoCommand(program: Command, io: CliIo): void {
  program
    .command('demo')
    .description('seed a demo tenant in production and staging and print ready-to-use credentials')
    .addOption(jsonOption())
    .action(async (opts: { json?: boolean }) => {
      const result = await withRuntime(io, async (rt) => {
        const out: Record<string, unknown> = {};
        for (const env of ENVIRONMENTS) out[env] = await seedDemo(rt.deps, { environment: env });
        return out;
      });
      printResult(io, !!opts.json, result);
    });
}
