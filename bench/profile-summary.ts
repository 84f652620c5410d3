/**
 * Summarises a V8 CPU profile (.cpuprofile, from `node --cpu-prof` or `npm run bench -- --profile
 * DIR`): where the server's CPU time went, by package or project folder and by function (self
 * time), so a missed target can be explained from a measurement rather than a guess.
 *
 *   node --import tsx bench/profile-summary.ts FILE.cpuprofile [--top 25]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({
  options: { top: { type: 'string', default: '25' } },
  allowPositionals: true,
});
const file = positionals[0];
if (!file) {
  process.stderr.write('usage: profile-summary FILE.cpuprofile [--top N]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));

/** Microseconds of self time per node id. */
const self = new Map<number, number>();
profile.samples.forEach((id, i) => {
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const total = [...self.values()].reduce((a, b) => a + b, 0);

function area(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1] as string;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const own = /\/(?:dist|src)\/(.+)\/[^/]+$/.exec(url);
  if (own) return `project ${own[1]}`;
  return url;
}

const areas = new Map<string, number>();
const functions = new Map<string, number>();
for (const [id, us] of self) {
  const node = byId.get(id);
  if (!node) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const a = area(url, functionName);
  areas.set(a, (areas.get(a) ?? 0) + us);
  const fname = `${functionName || '(anonymous)'} ${url ? `${url.replace(/^.*\/(node_modules|dist|src)\//, '$1/')}:${lineNumber + 1}` : ''}`;
  functions.set(fname, (functions.get(fname) ?? 0) + us);
}

const top = Number(values.top);
const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)} %`;
const print = (title: string, m: Map<string, number>) => {
  process.stdout.write(`\n${title}\n`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(`${pct(us)}  ${k}\n`);
  }
};
process.stdout.write(`${file}: ${(total / 1e6).toFixed(2)} s of samples\n`);
print('Self time by area', areas);
print('Self time by function', functions);
