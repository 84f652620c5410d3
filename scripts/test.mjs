#!/usr/bin/env node
// Runs every test/**/*.test.ts with node's test runner, two files at a time (the fleet suite first, alone). Extra arguments are
// passed through, e.g. `npm test -- --test-name-pattern=token`; arguments ending in .ts name the
// files to run. Own options:
//   --storage-only  only the files whose outcome can depend on the storage (see storageBound)
//   --list          print the chosen files instead of running them
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { build as transpile } from 'esbuild';

function find(dir, suffix = '.test.ts') {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : find(p, suffix);
    return e.name.endsWith(suffix) ? [p] : [];
  });
}

// What a test reads the storage from: DATABASE_URL and REDIS_URL through process.env, directly or
// through test/helpers/test-runtime.ts, or inherited by the child processes it spawns.
const READS_STORAGE = /process\.env|child_process/;
const sources = new Map();

/**
 * Whether a test file, or a module under test/ it imports (at any depth), reads the environment
 * or spawns a process. The others never see DATABASE_URL or REDIS_URL, so a second pass on
 * PostgreSQL + Redis would run exactly what the SQLite pass ran.
 */
function storageBound(file, seen = new Set()) {
  if (seen.has(file)) return false;
  seen.add(file);
  if (!sources.has(file)) sources.set(file, readFileSync(file, 'utf8'));
  const text = sources.get(file);
  if (READS_STORAGE.test(text)) return true;
  const local = [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)]
    .map((m) => resolve(dirname(file), m[1]).replace(/\.js$/, '.ts'))
    .filter((p) => p.startsWith(resolve('test')));
  return local.some((p) => storageBound(p, seen));
}

const args = process.argv.slice(2);
const own = new Set(['--storage-only', '--list']);
const explicit = args.filter((a) => a.endsWith('.ts'));
const flags = args.filter((a) => !a.endsWith('.ts') && !own.has(a));
// node's runner takes the files in path order whatever order they are given in.
let files = explicit.length ? explicit : find('test').sort();
if (args.includes('--storage-only')) files = files.filter((f) => storageBound(resolve(f)));
if (args.includes('--list')) {
  console.log(files.join('\n'));
  process.exit(0);
}

// The suite runs on JavaScript: tsc -b builds src/ and the SDK into their dist/ (incremental: an
// up-to-date check when nothing changed), esbuild turns test/ into build/test/ file by file, and
// build/src and build/sdk/src lead to those dist/ trees, so a test's `../src/x.js` is the built
// module. Each test file is a process of its own; under tsx, resolving its few hundred modules
// through the loader's hooks cost about 1.7 s of CPU per file, half of the whole suite's. Stack
// traces point at the .ts sources (source maps). tsc emits even with type errors, which
// `npm run typecheck` reports. Suites that start `rpa` as a process start the built CLI too.
const started = Date.now();
process.stdout.write('build (tsc -b, incremental; esbuild for test/): ');
const tsc = join('node_modules', 'typescript', 'bin', 'tsc');
const build = spawnSync(process.execPath, [tsc, '-b', 'tsconfig.build.json', 'sdk/tsconfig.json'], {
  encoding: 'utf8',
});
rmSync('build', { recursive: true, force: true });
await transpile({
  entryPoints: find('test', '.ts'),
  outdir: join('build', 'test'),
  outbase: 'test',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'inline',
  logLevel: 'error',
});
symlinkSync(join('..', 'dist'), join('build', 'src'), 'dir');
mkdirSync(join('build', 'sdk'));
symlinkSync(join('..', '..', 'sdk', 'dist'), join('build', 'sdk', 'src'), 'dir');
console.log(
  `${build.status === 0 ? 'done' : 'with errors (npm run typecheck)'} in ${Date.now() - started} ms`,
);
if (build.status !== 0) process.stdout.write(build.stdout + build.stderr);

// `npm test -- --test-reporter=spec` chooses node's reporter instead.
const reporter = flags.some((f) => f.startsWith('--test-reporter'))
  ? []
  : ['--test-reporter=./scripts/test-reporter.mjs'];
// Suites that hold latency bounds under a fleet of processes of their own run first, alone: beside
// another such suite on two cores, what they would measure is the other suite's load.
const ALONE = new Set(['test/system/fleet.test.ts']);
const isAlone = (f) => ALONE.has(relative('.', resolve(f)));
const runFiles = (list, concurrency) =>
  spawnSync(
    process.execPath,
    [
      '--enable-source-maps',
      '--test',
      `--test-concurrency=${concurrency}`,
      ...reporter,
      ...flags,
      ...list.map((f) => join('build', relative('.', resolve(f)).replace(/\.ts$/, '.js'))),
    ],
    { stdio: 'inherit', env: { ...process.env, RPA_TEST_DIST_BUILT: '1' } },
  ).status ?? 1;
const shared = files.filter((f) => !isAlone(f));
const alone = files.filter(isAlone);
console.log(
  `${files.length} test files${alone.length ? `: ${alone.join(', ')} alone, then the others` : ''}, two at a time`,
);
const aloneStatus = alone.length ? runFiles(alone, 1) : 0;
const status = shared.length ? runFiles(shared, 2) : 0;
process.exit(aloneStatus || status);
