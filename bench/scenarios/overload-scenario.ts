/**
 * One instance offered more than it can serve. POST /privacy/v1/forgetRequests (a write: the
 * database's commit is the bottleneck, as with most of the API's writes) for distinct people:
 * first its capacity in a closed loop (autocannon, 10 × --connections), then an open-loop schedule
 * (bench/open-loop.ts, 1,000 connections opened first): normal load (50 % of capacity) for 5 s, 150 % for 10 s, normal load
 * for 15 s. Run twice, on servers of the same build, with shedding as configured by default and
 * with it off (SHED_MAX_EVENT_LOOP_DELAY_MS=0 SHED_MAX_IN_FLIGHT=0). Per second: calls sent,
 * admitted (2xx) and the p50/p99 of those, 503s (and how many had Retry-After), anything else;
 * and how long after the burst the p99 of admitted calls is normal again (at most twice the
 * normal phase's p99 after its first two seconds, and at least 100 ms), to stay.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { BenchContext } from '../harness/bench-context.js';
import { log } from '../harness/log.js';
import { percentile } from '../harness/open-pool.js';
import { freePort, measure, peakRssMiB, stop } from '../harness/processes.js';
import { type Demo, getToken, startApi, type Target } from '../harness/targets.js';
import type { SecondOfLoad } from '../open-loop.js';

const NORMAL = 0.5;
const WARM_UP_SECONDS = 2;
/** On a shared machine one second's p99 moves by tens of ms with no change of load. */
const NORMAL_P99_FLOOR_MS = 100;
const BURST = 1.5;
const PHASES = (capacity: number) => [
  { name: 'normal', seconds: 5, rate: Math.round(capacity * NORMAL) },
  { name: 'burst', seconds: 10, rate: Math.round(capacity * BURST) },
  { name: 'after', seconds: 15, rate: Math.round(capacity * NORMAL) },
];

/**
 * Connections of the closed loop that measures capacity (on the server without shedding, which
 * would refuse most of them), times --connections: commits are grouped,
 * so a write's throughput grows with the calls waiting, and 50 connections leave it well below what
 * an open loop finds the server serving.
 */
const CAPACITY_CONNECTIONS_FACTOR = 10;

/**
 * Connections of the open loop, opened before its schedule: a balancer's pool, above
 * SHED_MAX_IN_FLIGHT's default. Opened during the burst instead, they would overflow the server's
 * listen queue (511), and the SYN retries (1 s, 3 s, ...) would be the client's latency.
 */
const OPEN_LOOP_CONNECTIONS = 1000;

/** Calls shed by the server at `metrics`, by reason (rpa_http_requests_shed_total). */
async function shedByReason(metrics: string): Promise<string> {
  const text = await (await fetch(`${metrics}/metrics`)).text();
  const counts = text
    .split('\n')
    .filter((l) => l.startsWith('rpa_http_requests_shed_total{'))
    .map((l) => `${/reason="([^"]+)"/.exec(l)?.[1]} ${l.split(' ').at(-1)}`);
  return counts.length > 0 ? counts.join(', ') : 'none';
}

const forgetBody = (n: string) => JSON.stringify({ authorId: `person-${n}`, clientNames: ['Acme-EN_GB'] });

/** A phase's seconds added up: the counts of SecondOfLoad, and its 2xx latencies as percentiles. */
interface PhaseSummary extends Omit<SecondOfLoad, 'second' | 'okLatencies'> {
  p50: number;
  p99: number;
}

function summarize(phase: string, bins: readonly SecondOfLoad[]): PhaseSummary {
  const latencies = bins.flatMap((b) => b.okLatencies).sort((a, b) => a - b);
  const sum = (k: 'sent' | 'ok' | 'shed' | 'shedWithRetryAfter' | 'other') =>
    bins.reduce((n, b) => n + b[k], 0);
  return {
    phase,
    sent: sum('sent'),
    ok: sum('ok'),
    shed: sum('shed'),
    shedWithRetryAfter: sum('shedWithRetryAfter'),
    other: sum('other'),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

/** Seconds after the burst until every later second's p99 is at most `normal`; null if never. */
function recoverySeconds(bins: readonly SecondOfLoad[], normal: number): number | null {
  const after = bins.filter((b) => b.phase === 'after');
  let recovered: number | null = 0;
  after.forEach((b, i) => {
    const p99 = percentile(
      [...b.okLatencies].sort((x, y) => x - y),
      99,
    );
    if (!(p99 <= normal)) recovered = i + 1 < after.length ? i + 1 : null;
  });
  return recovered;
}

function secondsTable(bins: readonly SecondOfLoad[]): string {
  const lines = bins.map((b) => {
    const l = [...b.okLatencies].sort((x, y) => x - y);
    return `| ${b.second} | ${b.phase} | ${b.sent} | ${b.ok} | ${percentile(l, 50)} | ${percentile(l, 99)} | ${b.shed} (${b.shedWithRetryAfter}) | ${b.other} |`;
  });
  return [
    '| s | phase | sent | admitted | p50 ms | p99 ms | 503 (with Retry-After) | other |',
    '|---:|---|---:|---:|---:|---:|---:|---:|',
    ...lines,
  ].join('\n');
}

function runOpenLoop(root: string, job: Record<string, unknown>): SecondOfLoad[] {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(root, 'bench/open-loop.ts'), JSON.stringify(job)],
    {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  if (r.status !== 0) throw new Error(`open-loop load exited with ${r.status}`);
  return (JSON.parse(r.stdout) as { seconds: SecondOfLoad[] }).seconds;
}

export async function overloadScenario(ctx: BenchContext, target: Target, demo: Demo): Promise<void> {
  const { root, connections } = ctx.settings;
  // The privacy worker would share the cores with the server; the bench measures serving.
  const metricsPort = await freePort();
  const quiet = {
    ...target,
    env: { ...target.env, WORKER_ENABLED: 'false', METRICS_PORT: String(metricsPort) },
  };
  const off = { ...quiet.env, SHED_MAX_EVENT_LOOP_DELAY_MS: '0', SHED_MAX_IN_FLIGHT: '0' };
  let capacity = 0;
  let firstPerson = 1_000_000_000;
  for (const [label, t] of [
    ['shedding off', { ...quiet, env: off }],
    ['shedding on (defaults)', quiet],
  ] as const) {
    const api = await startApi(ctx, t);
    try {
      const token = await getToken(api.base, demo);
      const request = {
        url: `${api.base}/privacy/v1/forgetRequests?passkey=${demo.privacyPasskey}`,
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      };
      if (capacity === 0) {
        const closedConnections = connections * CAPACITY_CONNECTIONS_FACTOR;
        log(`${target.name} overload: capacity, closed loop, ${closedConnections} connections, 5 s`);
        const closed = measure(root, api.child, {
          ...request,
          connections: closedConnections,
          duration: 5,
          distinctBodies: { template: forgetBody('@N@'), placeholder: '@N@', start: 0 },
        });
        capacity = Math.round((closed.statusCounts['2xx'] ?? 0) / 5);
        // The closed loop leaves calls queued: the schedule starts once they are served.
        await new Promise((resolve) => setTimeout(resolve, 5000));
        ctx.sections.push(
          `Overload (${target.name}, POST forgetRequests): capacity in a closed loop, ${closedConnections} connections, 5 s: ` +
            `${capacity} 2xx/s, p50 ${closed.p50} ms, p99 ${closed.p99} ms, ${closed.non2xx} non-2xx ` +
            `(shed: ${await shedByReason(`http://127.0.0.1:${metricsPort}`)}).`,
        );
      }
      const phases = PHASES(capacity);
      log(
        `${target.name} overload, ${label}: ${phases.map((p) => `${p.rate}/s for ${p.seconds} s`).join(', ')}`,
      );
      const bins = runOpenLoop(root, {
        ...request,
        body: { template: forgetBody('@N@'), placeholder: '@N@', start: firstPerson },
        connections: OPEN_LOOP_CONNECTIONS,
        phases,
      });
      firstPerson += 1_000_000;
      const shed = await shedByReason(`http://127.0.0.1:${metricsPort}`);
      report(ctx, target, `${label}`, bins, peakRssMiB(api.child), shed);
    } finally {
      await stop(api.child);
    }
  }
}

function report(
  ctx: BenchContext,
  target: Target,
  label: string,
  bins: SecondOfLoad[],
  rss: number,
  shed: string,
): void {
  const phases = ['normal', 'burst', 'after'].map((p) =>
    summarize(
      p,
      bins.filter((b) => b.phase === p),
    ),
  );
  // A new server's first seconds are slow (JIT, the first connections): the normal p99 is the
  // normal phase's after its first two seconds.
  const settled = summarize('normal', bins.filter((b) => b.phase === 'normal').slice(WARM_UP_SECONDS));
  const normal = Math.max(NORMAL_P99_FLOOR_MS, 2 * settled.p99);
  const recovery = recoverySeconds(bins, normal);
  for (const s of phases) {
    const seconds = bins.filter((b) => b.phase === s.phase).length;
    ctx.rows.push({
      db: target.name,
      scenario: `overload: ${s.phase}`,
      subject: `this service, ${label}`,
      rps: Math.round(s.ok / seconds),
      p50: s.p50,
      p99: s.p99,
      rssMiB: rss,
      note:
        `${s.sent} sent in ${seconds} s (${Math.round(s.sent / seconds)}/s), ${s.ok} admitted, ` +
        `${s.shed} 503 (${s.shedWithRetryAfter} with Retry-After), ${s.other} other` +
        (s.phase === 'after'
          ? `; p99 ≤ ${normal} ms again ${recovery === null ? 'never in the run' : `${recovery} s after the burst`}`
          : ''),
    });
  }
  ctx.sections.push(
    `Overload (${target.name}), ${label}, per second of the schedule (shed since the start, by reason: ${shed}):\n\n${secondsTable(bins)}`,
  );
}
