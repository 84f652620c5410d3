import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import type { Environment } from '../../domain/environment.js';
import { type ImportProgress, importReviews } from '../../services/reviews/import-reviews.js';
import { printResult } from '../output.js';
import { withRuntime } from '../with-runtime.js';
import { parseEnvironment } from './tenancy-commands.js';

function progressPrinter(): ((p: ImportProgress) => void) | undefined {
  if (!process.stderr.isTTY) return undefined;
  const started = Date.now();
  return (p) => {
    const seconds = Math.max((Date.now() - started) / 1000, 0.001);
    process.stderr.write(
      `\r${p.lines.toLocaleString()} lines · ${p.imported.toLocaleString()} imported · ` +
        `${p.rejected.toLocaleString()} rejected · ${Math.round(p.imported / seconds).toLocaleString()}/s   `,
    );
  };
}

export function registerReviewsCommands(program: Command): void {
  const reviews = program.command('reviews').description('reviews and their authors');
  reviews
    .command('import <file>')
    .description('import reviews from NDJSON (one JSON object a line; "-" reads stdin)')
    .option('--env <environment>', 'production or staging', parseEnvironment, 'production' as Environment)
    .option('--json', 'machine-readable output')
    .action(async (file: string, opts: { env: Environment; json?: boolean }) => {
      if (file !== '-') await access(file);
      const onProgress = opts.json ? undefined : progressPrinter();
      const result = await withRuntime((rt) => {
        // Opened only once the database is ready: lines read before iteration starts would be lost.
        const input = file === '-' ? process.stdin : createReadStream(file, { encoding: 'utf8' });
        const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
        return importReviews(rt.deps, {
          lines,
          environment: opts.env,
          ...(onProgress ? { onProgress } : {}),
        });
      });
      if (onProgress) process.stderr.write('\n');
      printResult(!!opts.json, result);
      if (result.imported === 0 && result.rejected > 0) process.exitCode = 1;
    });
}
