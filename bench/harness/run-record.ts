/**
 * A run's results, written with what they were measured on to a file of their own under
 * bench/results/ (bench/README.md, Results files): figures of one machine and one moment are only
 * read against the revision, runtime, machine and options that produced them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';

const RESULTS_DIR = 'bench/results';

export interface RunDescription {
  /** What ran, e.g. `npm run bench`. */
  readonly title: string;
  /** When the run started, and the revision it built then (revisionOf). */
  readonly started: Date;
  readonly revision: string;
  /** The options as the run resolved them, defaults included. */
  readonly options: Readonly<Record<string, string | boolean | undefined>>;
  /** Further rows of the configuration table, e.g. each checkout compared and its revision. */
  readonly extra?: ReadonlyArray<readonly [string, string]>;
  /** The results, in Markdown. */
  readonly body: string;
}

/** The short commit of `dir`'s checkout, marked when its tracked files differ from it. */
export function revisionOf(dir: string): string {
  const git = (args: string[]) => spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
  const head = git(['rev-parse', '--short', 'HEAD']);
  if (head.status !== 0) return 'unknown';
  const changed = git(['status', '--porcelain', '--untracked-files=no']).stdout.trim() !== '';
  return `${head.stdout.trim()}${changed ? '+changes' : ''}`;
}

/** The run as Markdown: its configuration table, then its results. */
function describeRun(run: RunDescription, ended: Date): string {
  const options = Object.entries(run.options)
    .filter(([, value]) => value !== undefined && value !== false)
    .map(([name, value]) => (value === true ? `--${name}` : `--${name} ${value}`))
    .join(' ');
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const rows: Array<readonly [string, string]> = [
    ['started', run.started.toISOString()],
    ['ended', ended.toISOString()],
    ['revision', run.revision],
    ['node', process.version],
    ['machine', `${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} cores`],
    ['load average at the end (1, 5, 15 min)', load],
    ['options', `\`${options}\``],
    ...(run.extra ?? []),
  ];
  return [
    `# ${run.title}, ${run.started.toISOString()}`,
    '',
    '| | |',
    '|---|---|',
    ...rows.map(([name, value]) => `| ${name} | ${value} |`),
    '',
    run.body,
    '',
  ].join('\n');
}

/** A new file for a run under bench/results/, named by when it started and its revision. */
function newResultsPath(root: string, run: RunDescription): string {
  const stamp = run.started
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replaceAll(':', '-');
  const base = join(root, RESULTS_DIR, `${stamp}-${run.revision}`);
  let path = `${base}.md`;
  for (let n = 2; existsSync(path); n++) path = `${base}-${n}.md`;
  return path;
}

/**
 * Writes the run to `out`, or to a new file under bench/results/ of the checkout in `root`, and
 * returns its text and where it went.
 */
export function recordRun(root: string, run: RunDescription, out?: string): { text: string; path: string } {
  const text = describeRun(run, new Date());
  const path = out ?? newResultsPath(root, run);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return { text, path };
}
