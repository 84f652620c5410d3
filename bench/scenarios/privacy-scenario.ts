/**
 * POST /privacy/v1/forgetRequests for distinct people at fixed offered rates, with many reviews
 * stored, then the time from submittedAt to completedAt of every request, read back through the
 * list endpoint. No peer: the ratio is to the target rate of 1,000/s. Beside each rate, a bare
 * node:http server (bench/ceiling-server.ts) answering an accepted request's bytes gets the same
 * job: what the load generator itself delivers at that rate, with the same connections.
 */
import { join } from 'node:path';
import type { BenchContext } from '../harness/bench-context.js';
import { log } from '../harness/log.js';
import { freePort, measure, peakRssMiB, rssMiB, start, stop } from '../harness/processes.js';
import { row } from '../harness/results.js';
import { seedReviews } from '../harness/seed-reviews.js';
import { type Demo, getToken, startApi, type Target } from '../harness/targets.js';

interface PrivacyRecord {
  id: string;
  status: string;
  submittedAt: string;
  completedAt?: string | null;
}

export async function privacyScenario(ctx: BenchContext, target: Target, demo: Demo): Promise<void> {
  const { root, connections, reviews, privacyRates, privacySeconds: seconds } = ctx.settings;
  const people = await seedReviews(target, reviews);
  const api = await startApi(ctx, target);
  try {
    const token = await getToken(api.base, demo);
    const auth = { authorization: `Bearer ${token}` };
    // Each rate asks about people the runs before it did not, so every request finds reviews.
    let firstPerson = 0;
    const offered: number[] = [];
    for (const rate of privacyRates) {
      const amount = Math.min(rate * seconds, people - firstPerson);
      if (amount <= 0) break;
      log(`${target.name} privacy: ${amount} forget requests at ${rate}/s`);
      offered.push(rate);
      // This run's requests are the ones listed after it and not before: a run that starts moments
      // after the previous one finished cannot tell them apart by time.
      const earlier = new Set((await listAll(api.base, demo, auth)).map((x) => x.id));
      const started = Date.now();
      const r = measure(
        root,
        api.child,
        forgetJob(api.base, auth, demo, { connections, amount, rate, firstPerson }),
      );
      firstPerson += amount;
      const accepted = r.statusCounts['2xx'] ?? 0;
      // Wait for the worker to finish everything this run filed, then read each request's times.
      const completion: number[] = [];
      const deadline = Date.now() + 600_000;
      for (;;) {
        const mine = (await listAll(api.base, demo, auth)).filter((x) => !earlier.has(x.id));
        const done = mine.filter((x) => x.status === 'COMPLETED' && x.completedAt);
        if (done.length >= accepted || Date.now() > deadline) {
          for (const x of done)
            completion.push(Date.parse(x.completedAt as string) - Date.parse(x.submittedAt));
          break;
        }
        await new Promise((res) => setTimeout(res, 1000));
      }
      completion.sort((a, b) => a - b);
      const pct = (p: number) =>
        completion[Math.min(completion.length - 1, Math.floor((p / 100) * completion.length))] ?? Number.NaN;
      const wall = (Date.now() - started) / 1000;
      ctx.rows.push({
        ...row(
          target.name,
          'POST forgetRequests',
          `this service, offered ${rate}/s`,
          r,
          peakRssMiB(api.child),
        ),
        rssAfterMiB: rssMiB(api.child),
        // No peer: the ratio is to the target rate of 1,000 accepted per second.
        ratio: ofTarget(r.requestsPerSecond),
        privacy: { offeredPerSecond: rate, accepted, sent: amount, completionP99: pct(99) },
        note:
          `${accepted}/${amount} accepted (${r.non2xx} non-2xx), the last answered ${r.elapsedSeconds} s ` +
          `into a ${amount / rate} s schedule; completed ${completion.length}; ` +
          `time to COMPLETED p50 ${pct(50)} ms, p99 ${pct(99)} ms, max ${completion.at(-1) ?? 'n/a'} ms; ` +
          `${reviews.toLocaleString()} reviews stored; wall ${wall.toFixed(1)} s`,
      });
    }
    await referenceRuns(ctx, target, api.base, auth, demo, offered, firstPerson);
  } finally {
    await stop(api.child);
  }
}

/** The body of a forget request for person `n` (a number, or the load job's placeholder). */
const forgetBody = (n: number | string) =>
  JSON.stringify({ authorId: `person-${n}`, clientNames: ['Acme-EN_GB', 'Acme-DE_DE'] });

/** A rate as the share of the target it is judged against (no peer here). */
const ofTarget = (requestsPerSecond: number) => `${(requestsPerSecond / 1000).toFixed(2)} of 1000/s`;

/** The load job filing `amount` forget requests at `rate`/s, for people numbered from `firstPerson`. */
function forgetJob(
  base: string,
  auth: Record<string, string>,
  demo: Demo,
  o: { connections: number; amount: number; rate: number; firstPerson: number },
) {
  return {
    url: `${base}/privacy/v1/forgetRequests?passkey=${demo.privacyPasskey}`,
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    connections: o.connections,
    amount: o.amount,
    overallRate: o.rate,
    distinctBodies: {
      template: forgetBody('@N@'),
      placeholder: '@N@',
      start: o.firstPerson,
    },
  };
}

/**
 * The same jobs against a bare node:http server answering the bytes of one accepted request (filed
 * after the measured runs, for someone none of them named), so the table shows what the load
 * generator delivers at each offered rate when the server costs next to nothing.
 */
async function referenceRuns(
  ctx: BenchContext,
  target: Target,
  base: string,
  auth: Record<string, string>,
  demo: Demo,
  rates: readonly number[],
  firstPerson: number,
): Promise<void> {
  const { root, connections, privacySeconds: seconds } = ctx.settings;
  const sample = await fetch(`${base}/privacy/v1/forgetRequests?passkey=${demo.privacyPasskey}`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: forgetBody(firstPerson),
  });
  const body = await sample.text();
  if (!sample.ok) throw new Error(`forget request failed: ${sample.status} ${body}`);
  const port = await freePort();
  const ceiling = await start(
    ctx.children,
    process.execPath,
    ['--import', 'tsx', join(root, 'bench/ceiling-server.ts')],
    {
      env: {
        PORT: String(port),
        BODY: body,
        CONTENT_TYPE: sample.headers.get('content-type') ?? 'application/json',
      },
    },
  );
  try {
    for (const rate of rates) {
      log(`${target.name} privacy: ${rate * seconds} requests at ${rate}/s to a bare node:http server`);
      const job = forgetJob(`http://127.0.0.1:${port}`, auth, demo, {
        connections,
        amount: rate * seconds,
        rate,
        firstPerson: 0,
      });
      const r = measure(root, ceiling, job);
      ctx.rows.push({
        ...row(
          target.name,
          'POST forgetRequests',
          `node:http ceiling, offered ${rate}/s`,
          r,
          peakRssMiB(ceiling),
        ),
        ratio: ofTarget(r.requestsPerSecond),
        note: `what the load generator delivers at this rate and these connections; the last answered ${r.elapsedSeconds} s into a ${seconds} s schedule`,
      });
    }
  } finally {
    await stop(ceiling);
  }
}

/** Every forget request of the demo tenant, page by page. */
async function listAll(base: string, demo: Demo, auth: Record<string, string>): Promise<PrivacyRecord[]> {
  const out: PrivacyRecord[] = [];
  let cursor: string | undefined;
  for (;;) {
    const url = new URL(`${base}/privacy/v1/forgetRequests`);
    url.searchParams.set('passkey', demo.privacyPasskey);
    url.searchParams.set('limit', '1000');
    if (cursor) url.searchParams.set('cursor', cursor);
    const r = await fetch(url, { headers: auth });
    if (!r.ok) throw new Error(`list failed: ${r.status} ${await r.text()}`);
    const page = (await r.json()) as { requests: PrivacyRecord[]; nextCursor: string | null };
    out.push(...page.requests);
    const next = page.nextCursor;
    if (!next) return out;
    cursor = next;
  }
}
