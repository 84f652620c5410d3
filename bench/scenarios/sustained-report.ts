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
 * A window in which the hypervisor gave more than this share of the machine's CPU to others
 * measures them, not the service: with the cores taken, half of the capacity measured before is no
 * longer half, and calls queue (seen here: steal of 20-37 % for a minute, p50 in seconds, while the
 * server's and the load generator's event loops never stalled for more than 76 ms).
 */
const STEAL_LIMIT_PERCENT = 5;

/** What each window of the run is judged on: throughput and p99 of the mix, the server's CPU per call. */
interface Judged {
  window: MixWindow;
  cpuPerCall: number;
}

/**
 * Each later judged window's throughput, p99 and CPU per call over the first judged window's, as
 * the lowest and the highest ratio, and the drift: how far each moved the way that is worse, as a
 * factor (throughput down, p99 and CPU per call up). A p99 below the first window's is a first
 * window that was slow, not a service that degrades.
 */
function drift(judged: readonly Judged[]) {
  const [first, ...rest] = judged as [Judged, ...Judged[]];
  const of = (f: (j: Judged) => number, worse: 'down' | 'up') => {
    const ratios = rest.map((j) => f(j) / f(first));
    const [low, high] = [Math.min(...ratios), Math.max(...ratios)];
    return { low, high, factor: worse === 'down' ? 1 / low : high };
  };
  return {
    throughput: of((j) => j.window.mix.ok, 'down'),
    p99: of((j) => j.window.mix.p99, 'up'),
    cpuPerCall: of((j) => j.cpuPerCall, 'up'),
  };
}
type Drift = ReturnType<typeof drift>;
const range = (r: Drift['throughput']) => `${r.low.toFixed(2)}–${r.high.toFixed(2)}×`;

/** A latency figure, or a dash where no call of its kind had a 2xx answer (null in JSON). */
const ms = (v: number | null | undefined) =>
  v === null || v === undefined || Number.isNaN(v) ? '–' : String(v);

/** The server's CPU per second between two samples: 1.00 is one core busy. */
const cpuBetween = (a: ServerSample, b: ServerSample) =>
  (b.cpuSeconds - a.cpuSeconds) / ((b.at - a.at) / 1000);

/** The server's time in major GC between two samples, ms, where its /metrics was read. */
const gcBetween = (a: ServerSample | undefined, b: ServerSample | undefined) =>
  a?.majorGcMs !== undefined && b?.majorGcMs !== undefined
    ? String(Math.round(b.majorGcMs - a.majorGcMs))
    : '–';

/** A share of the machine's CPU time between two samples, in %: what the hypervisor gave others, or what was busy. */
const machineShare = (of: 'steal' | 'busy', a: ServerSample | undefined, b: ServerSample | undefined) => {
  if (!a || !b) return Number.NaN;
  const total = b.machine.total - a.machine.total;
  const steal = b.machine.steal - a.machine.steal;
  const part = of === 'steal' ? steal : total - steal - (b.machine.idle - a.machine.idle);
  return (part / total) * 100;
};
const stealBetween = (a: ServerSample | undefined, b: ServerSample | undefined) =>
  machineShare('steal', a, b);

/** The server's CPU per answered call (mix and forget requests) in a window, µs. */
const cpuPerCall = (w: MixWindow, a: ServerSample | undefined, b: ServerSample | undefined) =>
  a && b
    ? Math.round(((b.cpuSeconds - a.cpuSeconds) * 1e6) / (w.mix.ok + (w.kinds.forget?.ok ?? 0)))
    : Number.NaN;

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
      `${w.kinds.forget?.ok} | ${all(w, 'non2xx') + all(w, 'failed')} | ${all(w, 'status5xx')} | ${to?.rssMiB ?? ''} | ${cpu} | ` +
      `${ms(cpuPerCall(w, from, to))} | ${ms(to?.loopDelay?.maxMs)} | ${gcBetween(from, to)} | ` +
      `${ms(s.run.result.generatorDelay?.[i]?.maxMs)} | ${ms(Math.round(machineShare('busy', from, to)))} | ${ms(Math.round(stealBetween(from, to)))} |`
    );
  });
  const unit = windowSeconds === 60 ? 'minute' : `${windowSeconds} s window`;
  return [
    `| ${unit} | offered/s | achieved/s | p50 ms | p99 ms | author p50 ms | author p99 ms | list p99 ms | create p99 ms | forget 2xx | non-2xx | 5xx | server RSS MiB | server CPU | server CPU µs/call | server loop delay max ms | server major GC ms | load generator's loop delay max ms | machine busy % | steal % |`,
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...lines,
  ].join('\n');
}

function verdict(s: Sustained, unit: string): { line: string; drift?: Drift } {
  const { windows } = s.run.result;
  const { samples } = s.run;
  const steal = windows.map((_, i) => stealBetween(samples[i], samples[i + 1]));
  const judged = windows.flatMap((window, i) =>
    (steal[i] as number) <= STEAL_LIMIT_PERCENT
      ? [{ index: i, window, cpuPerCall: cpuPerCall(window, samples[i], samples[i + 1]) }]
      : [],
  );
  const disturbed = windows.length - judged.length;
  const setAside =
    disturbed === 0
      ? ''
      : ` (${disturbed} ${unit}s set aside, in which the hypervisor gave others more than ${STEAL_LIMIT_PERCENT} % of the machine's CPU, up to ${Math.round(Math.max(...steal))} %)`;
  if (judged.length < 2 || judged.length < windows.length / 2)
    return {
      line: `Verdict: not judged: ${judged.length} of ${windows.length} ${unit}s undisturbed${setAside}; run it again on a quieter machine.`,
    };
  const d = drift(judged);
  const drifted = [
    d.throughput.factor > SUSTAINED_DRIFT_LIMIT && 'throughput',
    d.p99.factor > SUSTAINED_DRIFT_LIMIT && 'p99',
    d.cpuPerCall.factor > SUSTAINED_DRIFT_LIMIT && 'CPU per call',
  ].filter(Boolean);
  const firstJudged = (judged[0] as { index: number }).index + 1;
  const figures =
    `of ${unit} ${firstJudged}'s, the later ones' throughput was ${range(d.throughput)}, their p99 ${range(d.p99)}, ` +
    `the server's CPU per call ${range(d.cpuPerCall)}${setAside}`;
  const line =
    drifted.length === 0
      ? `Verdict: met: ${figures}; none drifted by more than ${SUSTAINED_DRIFT_LIMIT}×.`
      : `Verdict: missed: ${figures}; ${drifted.join(' and ')} drifted by more than ${SUSTAINED_DRIFT_LIMIT}×.`;
  return { line, drift: d };
}

export function sustainedReport(ctx: BenchContext, target: Target, s: Sustained): void {
  const { connections, sustainedSeconds: seconds, sustainedWindowSeconds: windowSeconds } = ctx.settings;
  const { result, samples } = s.run;
  const unit = windowSeconds === 60 ? 'minute' : `${windowSeconds} s window`;
  const { line, drift: d } = verdict(s, unit);
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
    sustained: d
      ? { throughputDrift: d.throughput.factor, p99Drift: d.p99.factor, cpuPerCallDrift: d.cpuPerCall.factor }
      : 'not judged',
    note:
      `${seconds} s; capacity ${s.capacity.perSecond}/s; ${all(total, 'non2xx') + all(total, 'failed')} non-2xx, ` +
      `${all(total, 'status5xx')} 5xx; forget ${s.forgetting.completed}/${s.forgetting.filed} COMPLETED; ` +
      `drift: ${d ? `throughput ${range(d.throughput)}, p99 ${range(d.p99)}, CPU per call ${range(d.cpuPerCall)}` : 'not judged'}`,
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
