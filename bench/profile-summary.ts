/**
 * Summarises a V8 CPU profile (.cpuprofile, from `node --cpu-prof` or `npm run bench -- --profile
 * DIR`): where the server's CPU time went, by package or project folder and by function (self
 * time), and per function with everything it called (inclusive, as a share of the time not idle),
 * so a missed target can be explained from a measurement rather than a guess.
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
const parentOf = new Map<number, number>();
for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n.id);

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

function label(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName || '(anonymous)'} ${url ? `${url.replace(/^.*\/(node_modules|dist|src)\//, '$1/')}:${lineNumber + 1}` : ''}`;
}

const areas = new Map<string, number>();
const functions = new Map<string, number>();
/** Time with the function anywhere on the stack (counted once per sample), idle excluded. */
const inclusive = new Map<string, number>();
let busy = 0;
for (const [id, us] of self) {
  const node = byId.get(id);
  if (!node) continue;
  const { functionName, url } = node.callFrame;
  const a = area(url, functionName);
  areas.set(a, (areas.get(a) ?? 0) + us);
  functions.set(label(node), (functions.get(label(node)) ?? 0) + us);
  if (functionName === '(idle)') continue;
  busy += us;
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parentOf.get(cur)) {
    const frame = byId.get(cur);
    if (!frame || frame.callFrame.functionName === '(root)') continue;
    const name = label(frame);
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + us);
  }
}

const top = Number(values.top);
const print = (title: string, m: Map<string, number>, of: number) => {
  process.stdout.write(`\n${title}\n`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(`${((100 * us) / of).toFixed(1).padStart(5)} %  ${k}\n`);
  }
};
process.stdout.write(
  `${file}: ${(total / 1e6).toFixed(2)} s of samples, ${(busy / 1e6).toFixed(2)} s not idle\n`,
);
print('Self time by area (of all samples)', areas, total);
print('Self time by function (of all samples)', functions, total);
print('Inclusive time by function (of the time not idle)', inclusive, busy);
