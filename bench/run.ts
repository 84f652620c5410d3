/**
 * `npm run bench`: starts everything it needs on loopback, drives load from a separate process
 * (bench/load.ts, autocannon), and prints throughput, p50/p99 latency and peak RSS, each with its
 * ratio to a reference measured in the same run:
 *   author   GET .../clientResponses/{guid}/author   vs a bare node:http server with the same bytes
 *   token    POST /auth/v1/oauth2/token              vs node-oidc-provider's client-credentials endpoint
 *   privacy  POST /privacy/v1/forgetRequests         at a fixed rate, with time to COMPLETED
 * on SQLite and on PostgreSQL + Redis.
 *
 * Options: --db sqlite,postgres  --scenarios author,token,privacy  --duration 10  --connections 50
 *          --reviews 1000000  --privacy-rate 1000,300  --privacy-seconds 10  --out bench/results/latest.md
 *          --profile DIR (V8 CPU profile of every API server run, summarised by bench/profile-summary.ts)
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite,postgres' },
    scenarios: { type: 'string', default: 'author,token,privacy' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    reviews: { type: 'string', default: '1000000' },
    // Offered rates, one run each: the target rate, then one the service sustains.
    'privacy-rate': { type: 'string', default: '1000,300' },
    'privacy-seconds': { type: 'string', default: '10' },
    out: { type: 'string', default: 'bench/results/latest.md' },
    // Writes a V8 CPU profile of each API server run into this folder (see bench/profile-summary.ts).
    profile: { type: 'string' },
  },
});

const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const ROOT = process.cwd();

interface LoadResult {
  requestsPerSecond: number;
  totalRequests: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCounts: Record<string, number>;
  /** Server CPU use during the run: 1.0 is one core fully busy. */
  cpu?: number;
}

interface Row {
  db: string;
  scenario: string;
  subject: string;
  rps: number;
  p50: number;
  p99: number;
  rssMiB: number;
  cpu?: number;
  ratio?: string;
  note?: string;
}

const rows: Row[] = [];
const children = new Set<ChildProcess>();

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** Starts a child process and resolves once it prints "listening" or answers /readyz. */
async function start(command: string, argv: string[], env: Record<string, string>, readyUrl?: string) {
  const child = spawn(command, argv, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.on('exit', () => children.delete(child));
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d.toString();
  });
  child.stderr?.on('data', (d) => {
    output += d.toString();
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${argv.join(' ')} exited: ${output.slice(-2000)}`);
    if (readyUrl) {
      try {
        const r = await fetch(readyUrl);
        if (r.ok) return child;
      } catch {}
    } else if (output.includes('listening')) {
      return child;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${argv.join(' ')} did not become ready: ${output.slice(-2000)}`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });
}

/** Peak resident set size of a process (VmHWM), in MiB. */
function peakRssMiB(child: ChildProcess): number {
  try {
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return Math.round((kb / 1024) * 10) / 10;
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds (user + system) a process has used so far, from /proc (clock ticks of 1/100 s). */
function cpuSeconds(child: ChildProcess): number {
  try {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** Runs a load job against `server` and adds how busy the server was (CPU seconds per second). */
function measure(server: ChildProcess, job: Record<string, unknown>): LoadResult {
  const cpuBefore = cpuSeconds(server);
  const started = Date.now();
  const result = runLoad(job);
  result.cpu = (cpuSeconds(server) - cpuBefore) / ((Date.now() - started) / 1000);
  return result;
}

function runLoad(job: Record<string, unknown>): LoadResult {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'bench/load.ts'), JSON.stringify(job)],
    {
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  if (r.status !== 0) throw new Error(`load generator failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop() as string) as LoadResult;
}

function rpa(env: Record<string, string>, ...argv: string[]): string {
  const r = spawnSync(process.execPath, [join(ROOT, 'dist/cli/main.js'), ...argv], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`rpa ${argv.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

interface Demo {
  clientId: string;
  clientSecret: string;
  responsePasskey: string;
  privacyPasskey: string;
  reviewIds: string[];
}

interface Target {
  name: string;
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

async function targetFor(db: string): Promise<Target> {
  // Limits are set far above what a run can reach: the benchmark measures serving, not refusing.
  const limits = { DEFAULT_RATE_LIMIT_PER_MINUTE: '10000000', DEFAULT_QUOTA_PER_DAY: '1000000000' };
  if (db === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'rpa-bench-'));
    return {
      name: 'SQLite',
      env: { ...limits, DATABASE_URL: `sqlite:${join(dir, 'bench.db')}` },
      async cleanup() {
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  return {
    name: 'PostgreSQL+Redis',
    env: { ...limits, DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema, REDIS_URL },
    async cleanup() {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    },
  };
}

async function startApi(target: Target, extra: Record<string, string> = {}) {
  const port = await freePort();
  // warn: request logging is the operator's choice; the ceiling and the peer log nothing either.
  const env = { ...target.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...extra };
  const profile = args.profile ? ['--cpu-prof', '--cpu-prof-dir', args.profile] : [];
  const child = await start(
    process.execPath,
    [...profile, join(ROOT, 'dist/cli/main.js'), 'serve'],
    env,
    `http://127.0.0.1:${port}/readyz`,
  );
  return { child, base: `http://127.0.0.1:${port}` };
}

async function getToken(base: string, demo: Demo): Promise<string> {
  const r = await fetch(`${base}/auth/v1/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: demo.clientId,
      client_secret: demo.clientSecret,
    }).toString(),
  });
  if (!r.ok) throw new Error(`token request failed: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { access_token: string }).access_token;
}

async function authorScenario(target: Target, demo: Demo): Promise<void> {
  const api = await startApi(target);
  try {
    const token = await getToken(api.base, demo);
    const auth = { authorization: `Bearer ${token}` };
    const create = await fetch(
      `${api.base}/response/v1/clientResponses/Acme-EN_GB/reviews/${demo.reviewIds[0]}?passkey=${demo.responsePasskey}`,
      {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          attributes: { department: 'Support', response: `Thank you ${randomBytes(4).toString('hex')}` },
        }),
      },
    );
    if (!create.ok) throw new Error(`create response failed: ${create.status} ${await create.text()}`);
    const guid = ((await create.json()) as { data: { id: string } }).data.id;
    const path = `/response/v1/clientResponses/${guid}/author?passkey=${demo.responsePasskey}`;
    const sample = await fetch(`${api.base}${path}`, { headers: auth });
    const body = await sample.text();
    if (!sample.ok) throw new Error(`author failed: ${sample.status} ${body}`);

    const ceilingPort = await freePort();
    const ceiling = await start(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'bench/ceiling-server.ts')],
      {
        PORT: String(ceilingPort),
        BODY: body,
        CONTENT_TYPE: sample.headers.get('content-type') ?? 'application/json',
      },
    );
    try {
      log(`${target.name} author: ceiling`);
      const c = measure(ceiling, {
        url: `http://127.0.0.1:${ceilingPort}${path}`,
        headers: auth,
        connections: CONNECTIONS,
        duration: DURATION,
      });
      const cRss = peakRssMiB(ceiling);
      log(`${target.name} author: api`);
      const a = measure(api.child, {
        url: `${api.base}${path}`,
        headers: auth,
        connections: CONNECTIONS,
        duration: DURATION,
      });
      const aRss = peakRssMiB(api.child);
      rows.push(row(target.name, 'GET author', 'node:http ceiling', c, cRss));
      rows.push(row(target.name, 'GET author', 'this service', a, aRss, c));
    } finally {
      await stop(ceiling);
    }
  } finally {
    await stop(api.child);
  }
}

async function tokenScenario(target: Target, demo: Demo): Promise<void> {
  const api = await startApi(target);
  const peerPort = await freePort();
  const peerSecret = randomBytes(32).toString('base64url');
  const peer = await start(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/oidc-peer.ts')], {
    PORT: String(peerPort),
    CLIENT_ID: 'bench-client',
    CLIENT_SECRET: peerSecret,
  });
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  try {
    log(`${target.name} token: peer`);
    const p = measure(peer, {
      url: `http://127.0.0.1:${peerPort}/token`,
      method: 'POST',
      headers: form,
      body: `grant_type=client_credentials&client_id=bench-client&client_secret=${peerSecret}&scope=offline_access`,
      connections: CONNECTIONS,
      duration: DURATION,
    });
    const pRss = peakRssMiB(peer);
    log(`${target.name} token: api`);
    const a = measure(api.child, {
      url: `${api.base}/auth/v1/oauth2/token`,
      method: 'POST',
      headers: form,
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: demo.clientId,
        client_secret: demo.clientSecret,
      }).toString(),
      connections: CONNECTIONS,
      duration: DURATION,
    });
    const aRss = peakRssMiB(api.child);
    rows.push(row(target.name, 'POST token', 'node-oidc-provider', p, pRss));
    rows.push(row(target.name, 'POST token', 'this service', a, aRss, p));
  } finally {
    await stop(peer);
    await stop(api.child);
  }
}

/** Seeds `count` reviews by people person-0 … in-process, through the import service. */
async function seedReviews(target: Target, count: number): Promise<number> {
  const { loadConfig } = await import('../src/config.js');
  const { createRuntime } = await import('../src/runtime.js');
  const { importReviews } = await import('../src/services/import-reviews.js');
  const { createLogger } = await import('../src/logger.js');
  const config = loadConfig({ ...target.env, WORKER_ENABLED: 'false' });
  const runtime = await createRuntime(config, { logger: createLogger('warn', process.stderr) });
  const people = Math.max(1, Math.floor(count / 5));
  async function* lines() {
    for (let i = 0; i < count; i++) {
      const person = i % people;
      yield JSON.stringify({
        id: `bench-${i}`,
        clientName: i % 2 === 0 ? 'Acme-EN_GB' : 'Acme-DE_DE',
        rating: (i % 5) + 1,
        title: 'Benchmark review',
        text: 'A review written to give the privacy worker something to find among many.',
        author: {
          name: `Person ${person}`,
          authorId: `person-${person}`,
          emailAddress: `person-${person}@example.com`,
        },
      });
    }
  }
  const started = Date.now();
  let lastLog = 0;
  const result = await importReviews(runtime.deps, lines(), {
    environment: 'production',
    onProgress: (p) => {
      if (Date.now() - lastLog > 10_000) {
        lastLog = Date.now();
        log(`${target.name} seeding: ${p.imported.toLocaleString()} reviews`);
      }
    },
  });
  await runtime.close();
  log(
    `${target.name} seeded ${result.imported.toLocaleString()} reviews in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  return people;
}

interface PrivacyRecord {
  id: string;
  status: string;
  submittedAt: string;
  completedAt?: string | null;
}

async function privacyScenario(target: Target, demo: Demo): Promise<void> {
  const reviews = Number(args.reviews);
  const people = await seedReviews(target, reviews);
  const api = await startApi(target);
  try {
    const token = await getToken(api.base, demo);
    const auth = { authorization: `Bearer ${token}` };
    const seconds = Number(args['privacy-seconds']);
    // Each rate asks about people the runs before it did not, so every request finds reviews.
    let firstPerson = 0;
    for (const rate of (args['privacy-rate'] ?? '').split(',').map(Number).filter(Boolean)) {
      const amount = Math.min(rate * seconds, people - firstPerson);
      if (amount <= 0) break;
      log(`${target.name} privacy: ${amount} forget requests at ${rate}/s`);
      const started = Date.now();
      const r = measure(api.child, {
        url: `${api.base}/privacy/v1/forgetRequests?passkey=${demo.privacyPasskey}`,
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        connections: CONNECTIONS,
        amount,
        overallRate: rate,
        distinctBodies: {
          template: '{"authorId":"person-@N@","clientNames":["Acme-EN_GB","Acme-DE_DE"]}',
          placeholder: '@N@',
          start: firstPerson,
        },
      });
      firstPerson += amount;
      const accepted = r.statusCounts['2xx'] ?? 0;
      // Wait for the worker to finish everything this run filed, then read each request's times.
      const completion: number[] = [];
      const deadline = Date.now() + 600_000;
      for (;;) {
        const mine = (await listAll(api.base, demo, auth)).filter(
          (x) => Date.parse(x.submittedAt) >= started - 1000,
        );
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
      rows.push({
        ...row(
          target.name,
          'POST forgetRequests',
          `this service, offered ${rate}/s`,
          r,
          peakRssMiB(api.child),
        ),
        // No peer: the ratio is to the target rate of 1,000 accepted per second.
        ratio: `${(r.requestsPerSecond / 1000).toFixed(2)} of 1000/s`,
        note:
          `${accepted}/${amount} accepted (${r.non2xx} non-2xx); completed ${completion.length}; ` +
          `time to COMPLETED p50 ${pct(50)} ms, p99 ${pct(99)} ms, max ${completion.at(-1) ?? 'n/a'} ms; ` +
          `${reviews.toLocaleString()} reviews stored; wall ${wall.toFixed(1)} s`,
      });
    }
  } finally {
    await stop(api.child);
  }
}

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

function row(
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
  if (reference) out.ratio = (r.requestsPerSecond / reference.requestsPerSecond).toFixed(2);
  const bad = r.non2xx + r.errors + r.timeouts;
  if (bad > 0) out.note = `${bad} non-2xx/errors of ${r.totalRequests}`;
  return out;
}

function table(): string {
  const header =
    '| database | scenario | server | req/s | p50 ms | p99 ms | peak RSS MiB | server CPU | throughput ratio | notes |';
  const sep = '|---|---|---|---:|---:|---:|---:|---:|---:|---|';
  const lines = rows.map(
    (r) =>
      `| ${r.db} | ${r.scenario} | ${r.subject} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.rssMiB} | ${r.cpu === undefined ? '' : r.cpu.toFixed(2)} | ${r.ratio ?? '1.00 (reference)'} | ${r.note ?? ''} |`,
  );
  return [header, sep, ...lines].join('\n');
}

async function main(): Promise<void> {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('build failed');
  const scenarios = new Set((args.scenarios ?? '').split(','));
  for (const db of (args.db ?? '').split(',').filter(Boolean)) {
    const target = await targetFor(db);
    try {
      log(`${target.name}: seeding demo tenant`);
      const demo = (JSON.parse(rpa(target.env, 'demo', '--json')) as { production: Demo }).production;
      if (scenarios.has('author')) await authorScenario(target, demo);
      if (scenarios.has('token')) await tokenScenario(target, demo);
      if (scenarios.has('privacy')) await privacyScenario(target, demo);
    } finally {
      await target.cleanup();
    }
  }
  const cpu = readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/)?.[1] ?? 'unknown CPU';
  const report = [
    `Run ${new Date().toISOString()} on ${cpu}, ${(await import('node:os')).cpus().length} cores, Node ${process.version}.`,
    `${CONNECTIONS} connections, ${DURATION} s per measurement; load from a separate process (autocannon).`,
    '',
    table(),
    '',
  ].join('\n');
  process.stdout.write(`${report}\n`);
  if (args.out) {
    mkdirSync(dirname(args.out), { recursive: true });
    writeFileSync(args.out, report);
  }
}

process.on('SIGINT', () => {
  for (const c of children) c.kill('SIGKILL');
  process.exit(130);
});

main().catch(async (err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.message : String(err)}\n`);
  for (const c of children) c.kill('SIGKILL');
  process.exit(1);
});
