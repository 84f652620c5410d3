/**
 * The sustained scenario's results: a row of the table for the whole run, and a section with the
 * capacity found, one line per window, what the run left behind, and the drift verdict.
 */
import type { BenchContext } from '../harness/bench-context.js';
import type { MixRun, ServerSample } from '../harness/run-mix.js';
import type { Target } from '../harness/targets.js';
import type { MixWindow } from '../mix-load.js';

/** Throughput or p99 that moves by more than this factor from the first window misses the target. */
const SUSTAINED_DRIFT_LIMIT = 2;

/** The forget requests filed since the schedule started, and how many of them reached COMPLETED. */
export interface Forgetting {
  rate: number;
  filed: number;
  completed: number;
  /** Seconds after the load's end until the last was completed, or the wait given up. */
  waitedSeconds: number;
}

interface Sustained {
  capacity: { perSecond: number; run: MixRun; seconds: number };
  rate: number;
  run: MixRun;
  memory: { peakMiB: number; afterMiB: number };
  forgetting: Forgetting;
  responseRows: number;
}

const all = (w: MixWindow, k: 'non2xx' | 'status5xx' | 'failed') =>
  Object.values(w.kinds).reduce((n, a) => n + a[k], 0);
const mixSent = (w: MixWindow) =>
  (w.sent.author ?? 0) + (w.sent.list ?? 0) + (w.sent.create ?? 0) + (w.sent.token ?? 0);
/**
 * Each later window's throughput and p99 of the mix over the first window's, as the lowest and the
 * highest ratio, and the drift: the farthest either way, as a factor ≥ 1 (0.4 and 2.5 are both 2.5).
 */
function drift(windows: readonly MixWindow[]) {
  const [first, ...rest] = windows as [MixWindow, ...MixWindow[]];
  const of = (f: (w: MixWindow) => number) => {
    const ratios = rest.map((w) => f(w) / f(first));
    const [low, high] = [Math.min(...ratios), Math.max(...ratios)];
    return { low, high, factor: Math.max(high, 1 / low) };
  };
  return { throughput: of((w) => w.mix.ok), p99: of((w) => w.mix.p99) };
}
type Drift = ReturnType<typeof drift>;
const range = (r: Drift['throughput']) => `${r.low.toFixed(2)}–${r.high.toFixed(2)}×`;

/** A latency figure, or a dash where no call of its kind had a 2xx answer (null in JSON). */
const ms = (v: number | null | undefined) =>
  v === null || v === undefined || Number.isNaN(v) ? '–' : String(v);

/** The server's CPU per second between two samples: 1.00 is one core busy. */
const cpuBetween = (a: ServerSample, b: ServerSample) =>
  (b.cpuSeconds - a.cpuSeconds) / ((b.at - a.at) / 1000);

function windowsTable(s: Sustained, windowSeconds: number): string {
  const { windows } = s.run.result;
  const { samples } = s.run;
  const lines = windows.map((w, i) => {
    const [from, to] = [samples[i], samples[i + 1]];
    const cpu = from && to ? cpuBetween(from, to).toFixed(2) : '';
    const perSecond = (n: number) => Math.round(n / windowSeconds);
    return (
      `| ${i + 1} | ${perSecond(mixSent(w))} | ${perSecond(w.mix.ok)} | ${ms(w.mix.p50)} | ${ms(w.mix.p99)} | ` +
      `${ms(w.kinds.author?.p50)} | ${ms(w.kinds.author?.p99)} | ${ms(w.kinds.list?.p99)} | ${ms(w.kinds.create?.p99)} | ` +
      `${w.kinds.forget?.ok} | ${all(w, 'non2xx') + all(w, 'failed')} | ${all(w, 'status5xx')} | ${to?.rssMiB ?? ''} | ${cpu} |`
    );
  });
  const unit = windowSeconds === 60 ? 'minute' : `${windowSeconds} s window`;
  return [
    `| ${unit} | offered/s | achieved/s | p50 ms | p99 ms | author p50 ms | author p99 ms | list p99 ms | create p99 ms | forget 2xx | non-2xx | 5xx | server RSS MiB | server CPU |`,
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...lines,
  ].join('\n');
}

function verdict(windows: readonly MixWindow[], unit: string): { line: string; drift?: Drift } {
  if (windows.length < 2)
    return { line: `Verdict: not judged: one ${unit} only, nothing to compare with the first.` };
  const d = drift(windows);
  const drifted = [
    d.throughput.factor > SUSTAINED_DRIFT_LIMIT && 'throughput',
    d.p99.factor > SUSTAINED_DRIFT_LIMIT && 'p99',
  ].filter(Boolean);
  const figures = `of ${unit} 1's, the later ones' throughput was ${range(d.throughput)}, their p99 ${range(d.p99)}`;
  const line =
    drifted.length === 0
      ? `Verdict: met: ${figures}; neither drifted by more than ${SUSTAINED_DRIFT_LIMIT}×.`
      : `Verdict: missed: ${figures}; ${drifted.join(' and ')} drifted by more than ${SUSTAINED_DRIFT_LIMIT}×.`;
  return { line, drift: d };
}

export function sustainedReport(ctx: BenchContext, target: Target, s: Sustained): void {
  const { connections, sustainedSeconds: seconds, sustainedWindowSeconds: windowSeconds } = ctx.settings;
  const { result, samples } = s.run;
  const unit = windowSeconds === 60 ? 'minute' : `${windowSeconds} s window`;
  const { line, drift: d } = verdict(result.windows, unit);
  const total = result.total;
  const first = samples[1];
  const last = samples.at(-1);
  const cpu = samples[0] && last ? cpuBetween(samples[0], last) : undefined;
  const capacityMix = s.capacity.run.result.total.mix;
  const statuses = Object.entries(result.statusCounts)
    .map(([status, n]) => `${status} × ${n}`)
    .join(', ');
  ctx.rows.push({
    db: target.name,
    scenario: 'sustained mix',
    subject: `this service, offered ${s.rate}/s + ${s.forgetting.rate} forget/s`,
    rps: Math.round(total.mix.ok / seconds),
    p50: Math.round(total.mix.p50),
    p99: Math.round(total.mix.p99),
    rssMiB: s.memory.peakMiB,
    rssAfterMiB: s.memory.afterMiB,
    ...(cpu !== undefined ? { cpu } : {}),
    ratio: `${(total.mix.ok / seconds / s.capacity.perSecond).toFixed(2)} of capacity`,
    ...(d ? { sustained: { throughputDrift: d.throughput.factor, p99Drift: d.p99.factor } } : {}),
    note:
      `${seconds} s; capacity ${s.capacity.perSecond}/s; ${all(total, 'non2xx') + all(total, 'failed')} non-2xx, ` +
      `${all(total, 'status5xx')} 5xx; forget ${s.forgetting.completed}/${s.forgetting.filed} COMPLETED; ` +
      `of ${unit} 1's: ${d ? `throughput ${range(d.throughput)}, p99 ${range(d.p99)}` : 'not judged'}`,
  });
  ctx.sections.push(
    [
      `Sustained (${target.name}): capacity of the mix in a closed loop, ${connections} connections, ${s.capacity.seconds} s: ` +
        `${s.capacity.perSecond} 2xx/s after its first seconds (p50 ${capacityMix.p50} ms, p99 ${capacityMix.p99} ms over all of it); ` +
        `then ${s.rate}/s of the mix (half) and ${s.forgetting.rate} forget requests/s for ${seconds} s, open loop on ` +
        `${connections} connections opened first. Per ${unit}, answers by when they arrived, latency from when each call was due, ` +
        `p50 and p99 of the 2xx; non-2xx counts calls without an answer too:`,
      '',
      windowsTable(s, windowSeconds),
      '',
      `After it: ${s.responseRows.toLocaleString('en')} rows in client_responses (${total.kinds.create?.ok} created by the schedule); ` +
        `forget requests filed ${s.forgetting.filed}, COMPLETED ${s.forgetting.completed} ` +
        `(${s.forgetting.waitedSeconds} s after the schedule's end); server RSS ${first?.rssMiB} MiB after ${unit} 1, ` +
        `${last?.rssMiB} MiB after the last; answers by status: ${statuses}` +
        (result.unanswered > 0 ? `; ${result.unanswered} unanswered 60 s after the schedule` : '') +
        '.',
      '',
      line,
    ].join('\n'),
  );
}
