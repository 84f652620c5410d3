import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import type { Environment } from '../../domain/environment.js';
import {
  type ImportProgress,
  type ImportResult,
  importReviews,
} from '../../services/reviews/import-reviews.js';
import type { CliIo } from '../cli-io.js';
import { environmentOption, jsonOption } from '../command-options.js';
import { openInputFile } from '../open-input-file.js';
import { printResult } from '../output.js';
import { withRuntime } from '../with-runtime.js';

function progressPrinter(io: CliIo): ((p: ImportProgress) => void) | undefined {
  if (!io.stderr.isTTY) return undefined;
  const started = Date.now();
  return (p) => {
    const seconds = Math.max((Date.now() - started) / 1000, 0.001);
    io.stderr.write(
      `\r${p.lines.toLocaleString()} lines · ${p.imported.toLocaleString()} imported · ` +
        `${p.skippedForgotten.toLocaleString()} forgotten · ${p.rejected.toLocaleString()} rejected · ` +
        `${Math.round(p.imported / seconds).toLocaleString()}/s   `,
    );
  };
}

/** A summary, then one line per rejected or skipped line, in line order. */
function formatImportResult(r: ImportResult): string {
  const out = [
    r.dryRun ? 'dry run: nothing was written' : null,
    `lines              ${r.lines}`,
    `${r.dryRun ? 'would import' : 'imported    '}       ${r.imported}`,
    `skipped forgotten  ${r.skippedForgotten}`,
    `rejected           ${r.rejected}`,
  ].filter((l): l is string => l !== null);
  const notes = [
    ...r.errors.map((e) => ({ line: e.line, text: `rejected: ${e.message}` })),
    ...r.skipped.map((s) => ({
      line: s.line,
      text: `skipped: the author was forgotten in ${s.clientName}`,
    })),
  ].sort((a, b) => a.line - b.line);
  for (const n of notes) out.push(`line ${n.line}: ${n.text}`);
  const unlisted = r.rejected + r.skippedForgotten - notes.length;
  if (unlisted > 0) out.push(`(${unlisted} more not listed)`);
  return out.join('\n');
}

export function registerReviewsCommands(program: Command, io: CliIo): void {
  const reviews = program.command('reviews').description('reviews and their authors');
  reviews
    .command('import <file>')
    .description('import reviews from NDJSON (one JSON object a line; "-" reads stdin)')
    .addOption(environmentOption())
    .option('--dry-run', 'validate every line and report, without writing anything')
    .addOption(jsonOption())
    .action(async (file: string, opts: { env: Environment; json?: boolean; dryRun?: boolean }) => {
      const handle = file === '-' ? undefined : await openInputFile(file);
      const onProgress = opts.json ? undefined : progressPrinter(io);
      try {
        const result = await withRuntime(io, (rt) => {
          // Read only once the database is ready: lines read before iteration starts would be lost.
          const input = handle ? handle.createReadStream({ encoding: 'utf8' }) : io.stdin;
          const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
          return importReviews(rt.deps, {
            lines,
            environment: opts.env,
            dryRun: !!opts.dryRun,
            ...(onProgress ? { onProgress } : {}),
          });
        });
        if (onProgress) io.stderr.write('\n');
        printResult(io, !!opts.json, result, opts.json ? undefined : formatImportResult(result));
        // A rejected line is data the operator expected to land: scripts must notice.
        if (result.rejected > 0) io.exitCode = 1;
      } finally {
        await handle?.close();
      }
    });
}
