/**
 * Open-loop load generator, run as its own process: sends requests on a fixed schedule whatever
 * the answers, on `connections` keep-alive connections opened before the schedule starts (a
 * balancer's pool; past it a request waits here), so a slow server meets
 * the same arrivals as a fast one (a closed loop such as autocannon's would send less once answers slow
 * down, and hide the backlog). Each request's latency counts from when the schedule says it is
 * due, not from when it left, so time spent waiting here is counted too.
 *
 * job (JSON in argv[2]): { url, method, headers, connections, body?: { template, placeholder, start },
 *                          phases: [{ name, seconds, rate }] }
 * Prints one JSON line: per second of the schedule, the requests sent then and what became of
 * them (2xx, 503 with and without Retry-After, anything else), with the p50 and p99 of the 2xx.
 */
import http from 'node:http';
import { finishWhenAnswered, openPool } from './harness/open-pool.js';

interface Phase {
  name: string;
  seconds: number;
  rate: number;
}

interface Job {
  url: string;
  method: string;
  headers: Record<string, string>;
  connections: number;
  body?: { template: string; placeholder: string; start: number };
  phases: Phase[];
}

export interface SecondOfLoad {
  second: number;
  phase: string;
  sent: number;
  ok: number;
  shed: number;
  shedWithRetryAfter: number;
  other: number;
  /** Latency of the 2xx answers, ms. */
  okLatencies: number[];
}

const job = JSON.parse(process.argv[2] ?? '{}') as Job;
const url = new URL(job.url);
const agent = new http.Agent({ keepAlive: true, maxSockets: job.connections });
let counter = job.body?.start ?? 0;
let outstanding = 0;

const seconds: SecondOfLoad[] = [];
let offset = 0;
for (const phase of job.phases)
  for (let s = 0; s < phase.seconds; s++)
    seconds.push({
      second: offset++,
      phase: phase.name,
      sent: 0,
      ok: 0,
      shed: 0,
      shedWithRetryAfter: 0,
      other: 0,
      okLatencies: [],
    });

function send(dueAt: number, bin: SecondOfLoad): void {
  const body = job.body ? job.body.template.replaceAll(job.body.placeholder, String(counter++)) : undefined;
  bin.sent += 1;
  outstanding += 1;
  const req = http.request(
    {
      agent,
      host: url.hostname,
      port: url.port,
      path: `${url.pathname}${url.search}`,
      method: job.method,
      headers: { ...job.headers, ...(body ? { 'content-length': Buffer.byteLength(body) } : {}) },
    },
    (res) => {
      res.resume();
      res.on('end', () => {
        outstanding -= 1;
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) {
          bin.ok += 1;
          bin.okLatencies.push(performance.now() - dueAt);
        } else if (status === 503) {
          bin.shed += 1;
          if (res.headers['retry-after']) bin.shedWithRetryAfter += 1;
        } else bin.other += 1;
      });
    },
  );
  req.on('error', () => {
    outstanding -= 1;
    bin.other += 1;
  });
  req.end(body);
}

let phaseStart = 0;
let phaseIndex = 0;
let sentInPhase = 0;
let secondOffset = 0;

/** Sends every request the schedule has made due by now, each with the time it was due. */
function tick(): void {
  const now = performance.now();
  for (;;) {
    const phase = job.phases[phaseIndex];
    if (!phase) {
      finish();
      return;
    }
    const phaseEnd = phaseStart + phase.seconds * 1000;
    const due = Math.min(
      Math.floor(((Math.min(now, phaseEnd) - phaseStart) / 1000) * phase.rate),
      phase.seconds * phase.rate,
    );
    for (; sentInPhase < due; sentInPhase++) {
      const dueAt = phaseStart + (sentInPhase / phase.rate) * 1000;
      const bin = seconds[secondOffset + Math.floor((dueAt - phaseStart) / 1000)] as SecondOfLoad;
      send(dueAt, bin);
    }
    if (now < phaseEnd) break;
    phaseStart = phaseEnd;
    secondOffset += phase.seconds;
    phaseIndex += 1;
    sentInPhase = 0;
  }
  setTimeout(tick, 1);
}

function finish(): void {
  finishWhenAnswered(
    () => outstanding,
    () => ({ seconds, unanswered: outstanding }),
  );
}

await openPool(agent, url, job.connections);
phaseStart = performance.now();
tick();
