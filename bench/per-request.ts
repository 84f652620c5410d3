/**
 * CPU per request of the server: builds it in this process on a SQLite file (or DATABASE_URL, with
 * REDIS_URL), seeds the demo tenant, listens on loopback, and has bench/load.ts (a child process)
 * send a fixed number of requests per round; the figure is this process's CPU time over them,
 * the least of a few rounds, taken in turns with the other servers measured. On a shared machine
 * throughput swings with the neighbours' load; the CPU a request costs moves much less, so
 * before/after comparisons use this.
 *
 *   node --import tsx bench/per-request.ts [--n 20000] [--rounds 3] [--concurrency 50]
 *        [--scenarios author,token,healthz,read,ceiling,fastify]
 *   node --cpu-prof --cpu-prof-dir /tmp/prof --import tsx bench/per-request.ts   # then profile-summary.ts
 *
 * `read` times the response read alone, in process, compiled once and built per call.
 * (`app.inject` is not used: light-my-request retains ~10 KB per call, and the GC this causes
 * dominated every figure.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { buildServer } from '../src/http/build-server.js';
import { createLogger } from '../src/logger.js';
import { createRuntime } from '../src/runtime.js';
import { seedDemo } from '../src/services/tenancy/seed-demo.js';
import { findAccessibleResponse, selectResponses } from '../src/store/repositories/client-responses.js';
import { runLoadAsync } from './harness/processes.js';
import { ceilingServer, frameworkFloor } from './harness/reference-servers.js';

const { values: args } = parseArgs({
  options: {
    n: { type: 'string', default: '20000' },
    scenarios: { type: 'string', default: 'author,token' },
    // Requests in flight at once, like the connections of a load run: writes then share commits.
    concurrency: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '3' },
  },
});
const n = Number(args.n);
const concurrency = Number(args.concurrency);
const rounds = Number(args.rounds);
const scenarios = new Set((args.scenarios ?? '').split(','));

/** The project's root, where runLoadAsync finds bench/load.ts. */
const root = join(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'rpa-per-request-'));
const databaseUrl = process.env.DATABASE_URL ?? `sqlite:${join(dir, 'bench.db')}`;
const config = loadConfig({
  DATABASE_URL: databaseUrl,
  // LOG_LEVEL=info prices the access line (ACCESS_LOG too): its lines then share stdout with the figures.
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  ...(process.env.ACCESS_LOG ? { ACCESS_LOG: process.env.ACCESS_LOG } : {}),
  WORKER_ENABLED: 'false',
  DEFAULT_RATE_LIMIT_PER_MINUTE: '10000000',
  DEFAULT_QUOTA_PER_DAY: '1000000000',
  ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
  ...(process.env.DATABASE_SCHEMA ? { DATABASE_SCHEMA: process.env.DATABASE_SCHEMA } : {}),
});
const runtime = await createRuntime(config, { logger: createLogger(config.logLevel) });
const app = await buildServer(runtime.http);
await app.ready();

const address = await app.listen({ host: '127.0.0.1', port: 0 });

/** One measured server: a name, and one round of `n` requests whose CPU per request it returns. */
interface Measured {
  name: string;
  round(): Promise<number>;
}
const measured: Measured[] = [];

/**
 * `amount` requests from bench/load.ts (a child process, so it does not share this event loop);
 * the figure is this process's CPU time over them. Checked and warmed up now, measured later in
 * turns with the others (see below).
 */
async function timed(
  name: string,
  job: { url: string; method?: string; headers: object; body?: string },
  base = address,
) {
  const first = await fetch(`${base}${job.url}`, {
    method: job.method ?? 'GET',
    headers: job.headers as Record<string, string>,
    ...(job.body !== undefined ? { body: job.body } : {}),
  });
  if (first.status !== 200) throw new Error(`${name}: ${first.status} ${await first.text()}`);
  const load = (amount: number) =>
    runLoadAsync(root, { ...job, url: `${base}${job.url}`, connections: concurrency, amount });
  await load(Math.min(2000, n));
  measured.push({
    name,
    async round() {
      const cpu0 = process.cpuUsage();
      await load(n);
      const used = process.cpuUsage(cpu0);
      return (used.user + used.system) / n;
    },
  });
}

/**
 * Every server over HTTP, in turns: each round measures each of them once, and each keeps its
 * least. Other work on the machine only ever adds to a figure, and in turns every server has the
 * same chances of a quiet moment; one after another, a busy minute would fall on one server alone.
 */
async function measureInTurns() {
  const best = measured.map(() => Number.POSITIVE_INFINITY);
  for (let round = 0; round < rounds; round++) {
    for (const [i, m] of measured.entries()) best[i] = Math.min(best[i]!, await m.round());
  }
  measured.forEach((m, i) => {
    process.stdout.write(
      `${m.name}: ${best[i]!.toFixed(1)} µs CPU per request (least of ${rounds} × ${n} in turns, ${concurrency} connections)\n`,
    );
  });
}

/** The same for calls made in this process (no HTTP): least CPU per call over the rounds. */
async function timedInProcess(name: string, call: () => Promise<unknown>) {
  for (let i = 0; i < 2000; i++) await call();
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds; round++) {
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < n; i++) await call();
    const used = process.cpuUsage(cpu0);
    best = Math.min(best, (used.user + used.system) / n);
  }
  process.stdout.write(`${name}: ${best.toFixed(1)} µs CPU per call (least of ${rounds} × ${n})\n`);
}

/** The reference servers, closed once every server has been measured. */
const closeLater: Array<() => Promise<unknown>> = [];

try {
  const demo = await seedDemo(runtime.deps, { environment: 'production' });
  const host = 'api.example.com';
  const tokenBody = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: demo.clientId,
    client_secret: demo.clientSecret,
  }).toString();
  const tokenCall = () =>
    app.inject({
      method: 'POST',
      url: '/auth/v1/oauth2/token',
      headers: { host, 'content-type': 'application/x-www-form-urlencoded' },
      payload: tokenBody,
    });
  const token = (JSON.parse((await tokenCall()).body) as { access_token: string }).access_token;
  const auth = { host, authorization: `Bearer ${token}` };
  const created = await app.inject({
    method: 'POST',
    url: `/response/v1/clientResponses/Acme-EN_GB/reviews/${demo.reviewIds[0]}?passkey=${demo.responsePasskey}`,
    headers: { ...auth, 'content-type': 'application/json' },
    payload: { attributes: { department: 'Support', response: 'Thank you' } },
  });
  if (created.statusCode !== 200) throw new Error(`create: ${created.statusCode} ${created.body}`);
  const guid = (JSON.parse(created.body) as { data: { id: string } }).data.id;
  const authorUrl = `/response/v1/clientResponses/${guid}/author?passkey=${demo.responsePasskey}`;
  if (scenarios.has('author')) await timed('GET author', { url: authorUrl, headers: auth });
  // The same bytes from a bare node:http server and from a bare Fastify route, served by this
  // process like the API: the floor of the runtime and of the framework, side by side.
  if (scenarios.has('ceiling') || scenarios.has('fastify')) {
    const sample = await fetch(`${address}${authorUrl}`, { headers: auth });
    const answer = {
      body: Buffer.from(await sample.text()),
      contentType: sample.headers.get('content-type') ?? 'application/json',
    };
    if (scenarios.has('ceiling')) {
      const bare = ceilingServer(answer);
      await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
      const { port } = bare.address() as AddressInfo;
      await timed('node:http, same bytes', { url: authorUrl, headers: auth }, `http://127.0.0.1:${port}`);
      closeLater.push(() => new Promise<void>((resolve) => bare.close(() => resolve())));
    }
    if (scenarios.has('fastify')) {
      const floor = frameworkFloor(answer, '/response/v1/clientResponses/:guid/author');
      const floorAddress = await floor.listen({ host: '127.0.0.1', port: 0 });
      await timed('Fastify, same bytes', { url: authorUrl, headers: auth }, floorAddress);
      closeLater.push(() => floor.close());
    }
  }
  if (scenarios.has('token'))
    await timed('POST token', {
      url: '/auth/v1/oauth2/token',
      method: 'POST',
      headers: { host, 'content-type': 'application/x-www-form-urlencoded' },
      body: tokenBody,
    });
  // The floor of any route: server-wide steps, logging, routing and serialisation, no store.
  if (scenarios.has('healthz')) await timed('GET healthz', { url: '/healthz', headers: { host } });
  await measureInTurns();
  // The response read alone: compiled once (as the route does it), and built by Kysely per call.
  const scope = { environment: 'production' as const, applicationId: demo.applicationId };
  if (scenarios.has('read')) {
    const { db } = runtime.deps.store;
    await timedInProcess('response read, compiled once', () => findAccessibleResponse(db, scope, guid));
    await timedInProcess('response read, built per call', () =>
      selectResponses(db)
        .where('client_responses.id', '=', guid)
        .where('client_responses.environment', '=', scope.environment)
        .where(
          'client_responses.client_id',
          'in',
          db
            .selectFrom('application_grants')
            .select('application_grants.client_id')
            .where('application_grants.application_id', '=', scope.applicationId),
        )
        .executeTakeFirst(),
    );
  }
} finally {
  for (const close of closeLater) await close();
  await app.close();
  await runtime.close();
  rmSync(dir, { recursive: true, force: true });
}
