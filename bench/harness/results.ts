/** The results table: one row per measured server, with its ratio to the reference. */
import type { Interleaved, LoadResult } from './processes.js';

/** The service as operators run it (the access log on), and the same at LOG_LEVEL=warn. */
export const SERVICE = 'this service';
export const SERVICE_AT_WARN = 'this service, LOG_LEVEL=warn';
/** The same build as SERVICE in a second process: how far two identical servers differ in this run. */
export const SERVICE_AGAIN = 'this service, second process';
/** The service exporting traces (bench/harness/service-variants.ts), sampling a tenth, and every trace. */
export const SERVICE_TRACED_SAMPLED = 'this service, traced at 0.1';
export const SERVICE_TRACED_ALL = 'this service, traced at 1.0';

export interface Row {
  db: string;
  scenario: string;
  subject: string;
  rps: number;
  p50: number;
  p99: number;
  /** Peak resident set of the server over the run, and what it holds once the scenario is done. */
  rssMiB: number;
  rssAfterMiB?: number;
  cpu?: number;
  ratio?: string;
  /** Throughput over the reference's, as a number, for the targets (target-verdicts.ts). */
  ratioValue?: number;
  /** Privacy runs: what was offered and accepted, and the p99 time to COMPLETED in ms. */
  privacy?: { offeredPerSecond: number; accepted: number; sent: number; completionP99: number };
  /**
   * The sustained scenario: how far throughput fell and p99 and the server's CPU per call rose from
   * its first judged window, as factors; not judged when too few windows were undisturbed.
   */
  sustained?: { throughputDrift: number; p99Drift: number; cpuPerCallDrift: number } | 'not judged';
  note?: string;
}

/** A row for load result `r`; with `reference`, its throughput ratio to that one. */
export function row(
  db: string,
  scenario: string,
  subject: string,
  r: LoadResult,
  rss: number,
  reference?: LoadResult,
): Row {
  const out: Row = {
    db,
    scenario,
    subject,
    rps: Math.round(r.requestsPerSecond),
    p50: r.p50,
    p99: r.p99,
    rssMiB: rss,
    ...(r.cpu !== undefined ? { cpu: r.cpu } : {}),
  };
  if (reference) {
    out.ratioValue = r.requestsPerSecond / reference.requestsPerSecond;
    out.ratio = out.ratioValue.toFixed(2);
  }
  const bad = r.non2xx + r.errors + r.timeouts;
  if (bad > 0) out.note = `${bad} non-2xx/errors of ${r.totalRequests}`;
  return out;
}

/**
 * Rows of servers measured in turns (measureInterleaved), named in the order measured: the first
 * is the reference, every other one gets its ratio to it and, in its note, that ratio's spread
 * over the turns.
 */
export function rowsInTurns(
  db: string,
  scenario: string,
  servers: ReadonlyArray<{ subject: string; rssMiB: number; rssAfterMiB: number }>,
  measured: Interleaved,
): Row[] {
  const reference = measured.results[0] as LoadResult;
  return servers.map(({ subject, rssMiB, rssAfterMiB }, i) => {
    const result = measured.results[i] as LoadResult;
    if (i === 0) return { ...row(db, scenario, subject, result, rssMiB), rssAfterMiB };
    const r = { ...row(db, scenario, subject, result, rssMiB, reference), rssAfterMiB };
    const ratios = measured.roundRatios[i] as number[];
    const spread = `ratio per turn ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;
    return { ...r, note: r.note ? `${r.note}; ${spread}` : spread };
  });
}

/** The rows as a Markdown table. */
export function table(rows: readonly Row[]): string {
  const header =
    '| database | scenario | server | req/s | p50 ms | p99 ms | peak RSS MiB | RSS after MiB | server CPU | throughput ratio | notes |';
  const sep = '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|';
  const lines = rows.map(
    (r) =>
      `| ${r.db} | ${r.scenario} | ${r.subject} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.rssMiB} | ${r.rssAfterMiB ?? ''} | ${r.cpu === undefined ? '' : r.cpu.toFixed(2)} | ${r.ratio ?? '1.00 (reference)'} | ${r.note ?? ''} |`,
  );
  return [header, sep, ...lines].join('\n');
}
