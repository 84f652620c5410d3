/**
 * The sustained scenario's load (bench/scenarios/sustained-scenario.ts), run as its own process: a
 * partner's mix of calls, by count 70 % reads of a response's author, 15 % lists of a review's
 * responses (the first page: no parameters), 10 % new responses, 5 % tokens, and beside it
 * forget requests to the Privacy API at a rate of their own. New responses go to a few reviews,
 * most to the first (a Zipf distribution, as a busy review gathers a conversation), and lists
 * read the same reviews alike; the author read is of a response picked evenly from those known,
 * each created one joining them. Requests carry the token the last token call issued.
 *
 * Closed loop (`closed: true`): each of `connections` sends its next call when the last is
 * answered, for `seconds`: what the server serves at most. Open loop (`rate`): calls are sent on
 * a fixed schedule whatever the answers, on `connections` keep-alive connections opened before it
 * (bench/open-loop.ts), each call's latency counted from when it was due.
 *
 * job (JSON in argv[2]): { base, token, tokenForm, responsePasskey, privacyPasskey,
 *   reviews: [{ client, id }], authorGuids: string[], connections, seconds, windowSeconds,
 *   closed?: true, rate?: number, forget?: { rate, prefix, clientNames } }
 * Prints `{"startedAt": <epoch ms>}` when the schedule starts, then one JSON line (MixResult): per
 * window of `windowSeconds`, the calls sent in it and, per kind and for the mix, the answers that
 * arrived in it, with the p50 and p99 of the 2xx.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { finishWhenAnswered, openPool, percentile } from './harness/open-pool.js';

const KINDS = ['author', 'list', 'create', 'token', 'forget'] as const;
type Kind = (typeof KINDS)[number];
const MIX: ReadonlyArray<readonly [Kind, number]> = [
  ['author', 14],
  ['list', 3],
  ['create', 2],
  ['token', 1],
];

interface Job {
  base: string;
  token: string;
  tokenForm: string;
  responsePasskey: string;
  privacyPasskey: string;
  reviews: ReadonlyArray<{ client: string; id: string }>;
  authorGuids: string[];
  connections: number;
  seconds: number;
  windowSeconds: number;
  closed?: true;
  rate?: number;
  forget?: { rate: number; prefix: string; clientNames: string[] };
}

export interface Answers {
  ok: number;
  non2xx: number;
  status5xx: number;
  /** No answer: the connection failed. */
  failed: number;
  /** Of the 2xx, ms. */
  p50: number;
  p99: number;
}

export interface MixWindow {
  sent: Partial<Record<Kind, number>>;
  kinds: Partial<Record<Kind, Answers>>;
  /** The four kinds of the mix together, forget requests apart. */
  mix: Answers;
}

export interface MixResult {
  windows: MixWindow[];
  /**
   * Per window, this generator's own event-loop delay, ms: a call due while it was stalled is sent
   * late and its latency, counted from when it was due, holds the stall.
   */
  generatorDelay: Array<{ p99Ms: number; maxMs: number }>;
  total: MixWindow;
  statusCounts: Record<string, number>;
  unanswered: number;
}

const job = JSON.parse(process.argv[2] ?? '{}') as Job;
const base = new URL(job.base);
const agent = new http.Agent({ keepAlive: true, maxSockets: job.connections });
let token = job.token;
const guids = [...job.authorGuids];
/** Marks this run's response texts: a text already given to a review is refused as a duplicate. */
const run = randomBytes(4).toString('hex');

/** Answers as they came: per window, per kind, the 2xx latencies and the other counts. */
interface Tally {
  sent: number;
  latencies: number[];
  non2xx: number;
  status5xx: number;
  failed: number;
}
const windowCount = Math.max(1, Math.ceil(job.seconds / job.windowSeconds));
const newTally = (): Tally => ({ sent: 0, latencies: [], non2xx: 0, status5xx: 0, failed: 0 });
const tallies = Array.from(
  { length: windowCount },
  () => Object.fromEntries(KINDS.map((k) => [k, newTally()])) as Record<Kind, Tally>,
);
const statusCounts: Record<string, number> = {};
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
const generatorDelay: MixResult['generatorDelay'] = [];
/** Closes a window's reading of this process's event-loop delay and starts the next. */
function readLoopDelay(): void {
  generatorDelay.push({
    p99Ms: Math.round(loopDelay.percentile(99) / 1e4) / 100,
    maxMs: Math.round(loopDelay.max / 1e4) / 100,
  });
  loopDelay.reset();
}
let startedAt = 0;
let outstanding = 0;

const windowAt = (t: number) =>
  Math.min(windowCount - 1, Math.max(0, Math.floor((t - startedAt) / 1000 / job.windowSeconds)));

/** Smooth weighted round robin: the mix's kinds in proportion, spread evenly over one cycle. */
function mixCycle(): Kind[] {
  const total = MIX.reduce((n, [, w]) => n + w, 0);
  const current = MIX.map(() => 0);
  const out: Kind[] = [];
  for (let i = 0; i < total; i++) {
    MIX.forEach(([, w], j) => {
      current[j] = (current[j] as number) + w;
    });
    const best = current.indexOf(Math.max(...current));
    current[best] = (current[best] as number) - total;
    out.push((MIX[best] as readonly [Kind, number])[0]);
  }
  return out;
}
const cycle = mixCycle();

/** A deterministic, evenly spread sequence in [0, 1) (golden-ratio steps). */
const spread = (n: number) => (n * 0.6180339887498949) % 1;
const zipf = job.reviews.map((_, k) => 1 / (k + 1));
const zipfTotal = zipf.reduce((a, b) => a + b, 0);
function busyReview(n: number) {
  let u = spread(n) * zipfTotal;
  for (let k = 0; k < zipf.length; k++) {
    u -= zipf[k] as number;
    if (u < 0) return job.reviews[k] as { client: string; id: string };
  }
  return job.reviews.at(-1) as { client: string; id: string };
}

const counters: Record<Kind, number> = { author: 0, list: 0, create: 0, token: 0, forget: 0 };
const json = { 'content-type': 'application/json' };

/** The request of the `n`th call of `kind`, and what to keep from its 2xx answer. */
function requestOf(kind: Kind, n: number) {
  const auth = { authorization: `Bearer ${token}` };
  const responses = `/response/v1/clientResponses`;
  const onReview = (r: { client: string; id: string }) =>
    `${responses}/${r.client}/reviews/${r.id}?passkey=${job.responsePasskey}`;
  switch (kind) {
    case 'author':
      return {
        method: 'GET',
        path: `${responses}/${guids[Math.floor(spread(n) * guids.length)]}/author?passkey=${job.responsePasskey}`,
        headers: auth,
      };
    case 'list':
      return { method: 'GET', path: onReview(busyReview(n)), headers: auth };
    case 'create': {
      const attributes = { department: 'Support', response: `Thank you for your review (${run}-${n}).` };
      const keep = (b: string) => guids.push((JSON.parse(b) as { data: { id: string } }).data.id);
      return {
        method: 'POST',
        path: onReview(busyReview(n)),
        headers: { ...auth, ...json },
        body: JSON.stringify({ attributes }),
        keep,
      };
    }
    case 'token':
      return {
        method: 'POST',
        path: '/auth/v1/oauth2/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: job.tokenForm,
        keep: (b: string) => {
          token = (JSON.parse(b) as { access_token: string }).access_token;
        },
      };
    case 'forget': {
      const f = job.forget as NonNullable<Job['forget']>;
      return {
        method: 'POST',
        path: `/privacy/v1/forgetRequests?passkey=${job.privacyPasskey}`,
        headers: { ...auth, ...json },
        body: JSON.stringify({ authorId: `${f.prefix}person-${n}`, clientNames: f.clientNames }),
      };
    }
  }
}

/** Sends the next call of `kind`, due at `dueAt`; resolves once it is answered or has failed. */
function send(kind: Kind, dueAt: number): Promise<void> {
  const { method, path, headers, body, keep } = requestOf(kind, counters[kind]++);
  (tallies[windowAt(dueAt)] as Record<Kind, Tally>)[kind].sent += 1;
  outstanding += 1;
  return new Promise((resolve) => {
    const settle = (record: (t: Tally) => void) => {
      outstanding -= 1;
      record((tallies[windowAt(performance.now())] as Record<Kind, Tally>)[kind]);
      resolve();
    };
    const req = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        path,
        method,
        headers: { ...headers, ...(body ? { 'content-length': Buffer.byteLength(body) } : {}) },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        let text = '';
        if (ok && keep) res.setEncoding('utf8').on('data', (d: string) => (text += d));
        else res.resume();
        res.on('end', () =>
          settle((t) => {
            statusCounts[status] = (statusCounts[status] ?? 0) + 1;
            if (!ok) {
              t.non2xx += 1;
              if (status >= 500) t.status5xx += 1;
              return;
            }
            t.latencies.push(performance.now() - dueAt);
            keep?.(text);
          }),
        );
      },
    );
    req.on('error', () =>
      settle((t) => {
        t.failed += 1;
      }),
    );
    req.end(body);
  });
}

/** Open loop: every call the schedule has made due by now, mix and forget requests. */
function tick(): void {
  const now = performance.now();
  const elapsed = Math.min(now - startedAt, job.seconds * 1000) / 1000;
  const due = (rate: number) => Math.floor(elapsed * rate);
  const rate = job.rate ?? 0;
  for (let i = sentMix; i < due(rate); i++)
    void send(cycle[i % cycle.length] as Kind, startedAt + (i / rate) * 1000);
  sentMix = Math.max(sentMix, due(rate));
  const f = job.forget?.rate ?? 0;
  for (let i = sentForget; i < due(f); i++) void send('forget', startedAt + (i / f) * 1000);
  sentForget = Math.max(sentForget, due(f));
  if (now - startedAt < job.seconds * 1000) setTimeout(tick, 1);
  else finish();
}
let sentMix = 0;
let sentForget = 0;

/** Closed loop: each connection sends its next call when the last is answered. */
async function closedLoop(): Promise<void> {
  const end = startedAt + job.seconds * 1000;
  let next = 0;
  const connection = async () => {
    while (performance.now() < end) await send(cycle[next++ % cycle.length] as Kind, performance.now());
  };
  await Promise.all(Array.from({ length: job.connections }, connection));
  finish();
}

function answers(tallies: readonly Tally[]): Answers {
  const sum = (k: 'non2xx' | 'status5xx' | 'failed') => tallies.reduce((n, t) => n + t[k], 0);
  const latencies = tallies.flatMap((t) => t.latencies).sort((a, b) => a - b);
  return {
    ok: latencies.length,
    non2xx: sum('non2xx'),
    status5xx: sum('status5xx'),
    failed: sum('failed'),
    p50: percentile(latencies, 50, 1),
    p99: percentile(latencies, 99, 1),
  };
}

function summary(windows: ReadonlyArray<Record<Kind, Tally>>): MixWindow {
  const sent: MixWindow['sent'] = {};
  const kinds: MixWindow['kinds'] = {};
  for (const k of KINDS) {
    const of = windows.map((w) => w[k]);
    sent[k] = of.reduce((n, t) => n + t.sent, 0);
    kinds[k] = answers(of);
  }
  return { sent, kinds, mix: answers(windows.flatMap((w) => MIX.map(([k]) => w[k]))) };
}

function finish(): void {
  finishWhenAnswered(
    () => outstanding,
    (): MixResult => {
      // The last window's delay, when its timer has not read it yet.
      while (generatorDelay.length < windowCount) readLoopDelay();
      return {
        windows: tallies.map((w) => summary([w])),
        generatorDelay,
        total: summary(tallies),
        statusCounts,
        unanswered: outstanding,
      };
    },
  );
}

await openPool(agent, base, job.connections);
startedAt = performance.now();
loopDelay.enable();
const delayTimer = setInterval(() => {
  if (generatorDelay.length < windowCount) readLoopDelay();
}, job.windowSeconds * 1000);
delayTimer.unref();
process.stdout.write(`${JSON.stringify({ startedAt: Date.now() })}\n`);
if (job.closed) void closedLoop();
else tick();
