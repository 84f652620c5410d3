/**
 * Half of one instance's capacity for a long time, while its tables grow: does it hold? The mix of
 * bench/mix-load.ts (by count 70 % author reads, 15 % lists of a review's responses, 10 % new
 * responses piling up on a few reviews, 5 % tokens) first in a closed loop for its capacity, then
 * open-loop at half that for --sustained-duration, with 5 forget requests a second to the Privacy
 * API beside it, carried out by the server's own worker (WORKER_ENABLED's default) on reviews
 * seeded for them. Per window (a minute by default): offered and achieved rate, p50 and p99 of the
 * mix and of author reads, non-2xx and 5xx, the server's RSS and CPU; then what the tables hold,
 * the forget requests filed and completed, and whether throughput, p99 or the server's CPU per call
 * moved by more than 2× from the first window the machine left undisturbed (sustained-report.ts).
 * On PostgreSQL its tables are vacuumed and analyzed once a minute, as autovacuum does on an
 * operator's server (the machine's runs without it).
 */
import type { BenchContext } from '../harness/bench-context.js';
import { log } from '../harness/log.js';
import { peakRssMiB, rssMiB, stop } from '../harness/processes.js';
import { type MixRun, runMix } from '../harness/run-mix.js';
import { seededReview, seedReviews } from '../harness/seed-reviews.js';
import { type Demo, getToken, startApi, type Target, tokenForm } from '../harness/targets.js';
import { type Forgetting, sustainedReport } from './sustained-report.js';

const FORGET_RATE = 5;
/** Reviews the new responses go to and the lists read, the first the busiest. */
const BUSY_REVIEWS = 20;
/** The closed loop that measures capacity: its first seconds warm the server and are not counted. */
const CAPACITY_SECONDS = 15;
const CAPACITY_WARM_UP_SECONDS = 5;
const SHARE_OF_CAPACITY = 0.5;
/**
 * A pause between the two: the server's event-loop delay, which it sheds load on, is still that of
 * the closed loop for a moment after it.
 */
const SETTLE_MS = 5000;
/** How long the forget requests filed get to reach COMPLETED once the load is over. */
const COMPLETION_WAIT_MS = 120_000;
/** This scenario's reviews and people, apart from those other scenarios seed in the same database. */
const PREFIX = 'sustained-';
const CLIENT_NAMES = ['Acme-EN_GB', 'Acme-DE_DE'];

export async function sustainedScenario(ctx: BenchContext, target: Target, demo: Demo): Promise<void> {
  const {
    root,
    connections,
    sustainedSeconds: seconds,
    sustainedWindowSeconds: windowSeconds,
  } = ctx.settings;
  // Every forget request names a person of its own with five reviews; the busy reviews' authors
  // are never forgotten.
  const forgets = FORGET_RATE * seconds;
  const people = forgets + BUSY_REVIEWS;
  await seedReviews(target, people * 5, PREFIX);
  const reviews = Array.from({ length: BUSY_REVIEWS }, (_, k) =>
    seededReview(forgets + k, people, PREFIX),
  ).map((r) => ({ client: r.clientName, id: r.id }));
  const api = await startApi(ctx, target, { metrics: true });
  const stopVacuuming = target.autovacuum();
  try {
    const token = await getToken(api.base, demo);
    const authorGuids = [];
    for (const review of reviews) authorGuids.push(await respond(api.base, demo, token, review));
    const common = {
      base: api.base,
      token,
      tokenForm: tokenForm(demo),
      responsePasskey: demo.responsePasskey,
      privacyPasskey: demo.privacyPasskey,
      reviews,
      authorGuids,
      connections,
    };
    log(
      `${target.name} sustained: capacity of the mix, closed loop, ${connections} connections, ${CAPACITY_SECONDS} s`,
    );
    const closed = await runMix(root, ctx.children, api.child, {
      ...common,
      closed: true,
      seconds: CAPACITY_SECONDS,
      windowSeconds: CAPACITY_WARM_UP_SECONDS,
    });
    const counted = closed.result.windows.slice(1);
    const capacity =
      counted.reduce((n, w) => n + w.mix.ok, 0) / (CAPACITY_SECONDS - CAPACITY_WARM_UP_SECONDS);
    const rate = Math.max(1, Math.round(capacity * SHARE_OF_CAPACITY));
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    log(
      `${target.name} sustained: ${rate}/s of the mix and ${FORGET_RATE} forget requests/s for ${seconds} s`,
    );
    const run = await runMix(
      root,
      ctx.children,
      api.child,
      {
        ...common,
        rate,
        seconds,
        windowSeconds,
        forget: { rate: FORGET_RATE, prefix: PREFIX, clientNames: CLIENT_NAMES },
      },
      api.metricsBase,
    );
    const memory = { peakMiB: peakRssMiB(api.child), afterMiB: rssMiB(api.child) };
    const forgetting = await awaitForgets(target, run);
    sustainedReport(ctx, target, {
      capacity: { perSecond: Math.round(capacity), run: closed, seconds: CAPACITY_SECONDS },
      rate,
      run,
      memory,
      forgetting,
      responseRows: await target.count('client_responses'),
    });
  } finally {
    await stopVacuuming();
    await stop(api.child);
  }
}

/**
 * Answers `review` with a new response and returns its id; a 503 (the server shedding load, as a
 * new server on a busy machine may) is retried after its Retry-After, as a client would.
 */
async function respond(base: string, demo: Demo, token: string, review: { client: string; id: string }) {
  const url = `${base}/response/v1/clientResponses/${review.client}/reviews/${review.id}?passkey=${demo.responsePasskey}`;
  for (let attempt = 1; ; attempt++) {
    const r = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ attributes: { department: 'Support', response: `Thank you, ${review.id}.` } }),
    });
    if (r.ok) return ((await r.json()) as { data: { id: string } }).data.id;
    if (r.status !== 503 || attempt === 10)
      throw new Error(`create response failed: ${r.status} ${await r.text()}`);
    await r.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, Number(r.headers.get('retry-after') ?? 1) * 1000));
  }
}

async function awaitForgets(target: Target, run: MixRun): Promise<Forgetting> {
  const since = `type = 'forget' and submitted_at >= ${run.startedAt}`;
  const filed = await target.count('privacy_requests', since);
  const started = Date.now();
  log(`${target.name} sustained: waiting for ${filed} forget requests to complete`);
  for (;;) {
    const completed = await target.count('privacy_requests', `${since} and status = 'COMPLETED'`);
    const waitedSeconds = Math.round((Date.now() - started) / 1000);
    if (completed >= filed || Date.now() - started > COMPLETION_WAIT_MS)
      return { rate: FORGET_RATE, filed, completed, waitedSeconds };
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
