/**
 * Instructions per request by function, from a callgrind dump of a Node process run with
 * `--perf-basic-prof`. Callgrind names native code by its symbols (OpenSSL, libuv, V8's builtins),
 * but code V8's compilers made has none: it shows as bare addresses. V8 writes where each piece of
 * code it makes lies to `/tmp/perf-<pid>.map` (for Linux perf), and those addresses are looked up
 * there, so a JavaScript function gets its name, file and line. V8 reuses addresses once code is
 * collected, and the map keeps every entry: an address is given the latest entry covering it.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

interface MapEntry {
  readonly start: number;
  readonly end: number;
  readonly name: string;
}

function readPerfMap(file: string): MapEntry[] {
  const entries: MapEntry[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const first = line.indexOf(' ');
    const second = line.indexOf(' ', first + 1);
    if (first < 0 || second < 0) continue;
    const start = Number.parseInt(line.slice(0, first), 16);
    const size = Number.parseInt(line.slice(first + 1, second), 16);
    // `JS:*name file:line:column` (optimised) or `^`/`~` tiers: the tier is kept, it tells them apart.
    entries.push({ start, end: start + size, name: line.slice(second + 1).replace(/^JS:/, '') });
  }
  return entries;
}

/** The latest entry of `entries` (in the map's order) that covers `address`. */
function nameOf(entries: readonly MapEntry[], address: number): string {
  for (let i = entries.length - 1; i >= 0; i -= 1) {
    const e = entries[i] as MapEntry;
    if (address >= e.start && address < e.end) return e.name;
  }
  return '(code not in the map)';
}

/**
 * Self instructions per request of each function of the dump, JavaScript and native, the largest
 * first. `requests` divides the counts.
 */
export function instructionsByFunction(
  dump: string,
  perfMap: string,
  requests: number,
): Array<{ readonly name: string; readonly perRequest: number }> {
  const annotate = spawnSync('callgrind_annotate', ['--threshold=100', dump], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (annotate.status !== 0) throw new Error(`callgrind_annotate: ${annotate.stderr}`);
  const entries = readPerfMap(perfMap);
  const totals = new Map<string, number>();
  for (const line of annotate.stdout.split('\n')) {
    const m = /^\s*([\d,]+) \([ \d.]+%\)\s+(.+)$/.exec(line);
    if (!m || line.includes('PROGRAM TOTALS')) continue;
    const count = Number((m[1] as string).replaceAll(',', ''));
    const where = m[2] as string;
    const jit = /^\?\?\?:0x([0-9a-f]+) \[\?\?\?\]$/.exec(where);
    const name = jit ? nameOf(entries, Number.parseInt(jit[1] as string, 16)) : where.replace(/^\?\?\?:/, '');
    totals.set(name, (totals.get(name) ?? 0) + count);
  }
  return [...totals]
    .map(([name, count]) => ({ name, perRequest: count / requests }))
    .sort((a, b) => b.perRequest - a.perRequest);
}
