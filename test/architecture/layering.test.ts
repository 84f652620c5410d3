import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

/**
 * The import rule of docs/architecture.md, checked on every source file: http | worker | cli ->
 * services -> domain + store, the domain depending on nothing but itself and the error catalog,
 * and the runtime the only place that wires all of them together.
 */
const SRC = resolve('src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

/** The top-level area of a file inside src/: `domain`, `store`, `services`, ..., or the file name. */
const areaOf = (file: string) => relative(SRC, file).split('/')[0]!.replace(/\.ts$/, '');

function importsOf(file: string): { line: number; target: string }[] {
  const found: { line: number; target: string }[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((text, i) => {
      for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
        found.push({ line: i + 1, target: resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts')) });
      }
    });
  return found;
}

/** Which areas each area may import from (itself always allowed). */
const ALLOWED: Record<string, readonly string[]> = {
  domain: ['errors'],
  store: ['domain', 'errors'],
  services: ['domain', 'store', 'errors', 'config', 'version'],
  http: ['services', 'domain', 'errors', 'config', 'version'],
  worker: ['services', 'domain', 'errors', 'config', 'version'],
  cli: ['runtime', 'http', 'worker', 'services', 'domain', 'errors', 'config', 'logger', 'version'],
  // OpenTelemetry behind the domain's Tracer: only the runtime imports it, and only when tracing.
  tracing: ['domain', 'errors', 'config', 'version'],
};

describe('source layout', () => {
  const files = sourceFiles(SRC);

  it('imports flow one way: http | worker | cli -> services -> domain + store', () => {
    const violations: string[] = [];
    for (const file of files) {
      const from = areaOf(file);
      const allowed = ALLOWED[from];
      if (!allowed) continue;
      for (const { line, target } of importsOf(file)) {
        const to = areaOf(target);
        if (to !== from && !allowed.includes(to)) {
          violations.push(`${relative(SRC, file)}:${line} imports ${relative(SRC, target)}`);
        }
      }
    }
    assert.deepEqual(violations, []);
  });

  it('cites only documents inside the repository', () => {
    const outside = /\b(DESIGN\.md|REFERENCE\.md|[Ss]eed §|shared\/spec)/;
    const violations = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((text, i) => (outside.test(text) ? [`${relative(SRC, file)}:${i + 1}`] : [])),
    );
    assert.deepEqual(violations, []);
  });
});
