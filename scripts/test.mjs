#!/usr/bin/env node
// Runs every test/**/*.test.ts with node's test runner (TypeScript through tsx).
// Extra arguments are passed through, e.g. `npm test -- --test-name-pattern=token`.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : find(p);
    return e.name.endsWith('.test.ts') ? [p] : [];
  });
}

const args = process.argv.slice(2);
const explicit = args.filter((a) => a.endsWith('.ts'));
const flags = args.filter((a) => !a.endsWith('.ts'));
const files = explicit.length ? explicit : find('test').sort();
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...flags, ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
