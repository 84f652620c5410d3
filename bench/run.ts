/**
 * `npm run bench`: starts everything it needs on loopback, drives load from a separate process
 * (bench/load.ts, autocannon), and prints throughput, p50/p99 latency and peak RSS, each with its
 * ratio to a reference measured in the same run:
 *   author   GET .../clientResponses/{guid}/author   vs a bare node:http server with the same bytes
 *   token    POST /auth/v1/oauth2/token              vs node-oidc-provider's client-credentials endpoint
 *                                                    (and bare node:http and Fastify servers with the same bytes)
 *   privacy  POST /privacy/v1/forgetRequests         at a fixed rate, with time to COMPLETED
 *   overload POST /privacy/v1/forgetRequests         150 % of capacity open-loop: admitted, shed, p99
 *                                                    (only when named in --scenarios)
 *   sustained a mix of author reads, response lists and creates, tokens, and forget requests at
 *            half of capacity for 10 minutes: per minute throughput, p50, p99 (only when named)
 *   tracing  author and token also traced, sampled at 0.1 and at 1.0, against the untraced service
 *            (only when named; runs author and token when they are not named)
 *   config   `rpa config diff` and `apply` of a tenancy file of 1,000 clients, 1,000 applications
 *            and 4,000 passkeys: seconds per step (only when named)
 * on SQLite and on PostgreSQL + Redis; then each target of the service, met or missed, from the
 * same run (bench/harness/target-verdicts.ts).
 *
 * Options: --db sqlite,postgres  --scenarios author,token,privacy  --duration 10  --rounds 5  --connections 50
 *          --reviews 1000000  --privacy-rate 1000,300  --privacy-seconds 10
 *          --sustained-duration 600  --sustained-window 60
 *          --out FILE (instead of a new file under bench/results/, see bench/harness/run-record.ts)
 *          --profile DIR (V8 CPU profile of every API server run, summarised by bench/profile-summary.ts)
 *
 * Where is what: bench/harness/ (processes, targets, results, review seeding, the results file),
 * bench/scenarios/ (one module per scenario); this file parses the options, runs the scenarios and
 * writes the table.
 */
import { type ChildProcess, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import type { BenchContext } from './harness/bench-context.js';
import { log } from './harness/log.js';
import { freePort, start, stop } from './harness/processes.js';
import { table } from './harness/results.js';
import { recordRun, revisionOf } from './harness/run-record.js';
import { targetVerdicts } from './harness/target-verdicts.js';
import { seedDemo, targetFor } from './harness/targets.js';
import { authorScenario } from './scenarios/author-scenario.js';
import { configScenario } from './scenarios/config-scenario.js';
import { overloadScenario } from './scenarios/overload-scenario.js';
import { privacyScenario } from './scenarios/privacy-scenario.js';
import { sustainedScenario } from './scenarios/sustained-scenario.js';
import { tokenScenario } from './scenarios/token-scenario.js';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite,postgres' },
    scenarios: { type: 'string', default: 'author,token,privacy' },
    duration: { type: 'string', default: '10' },
    // The author and token measurements alternate with their references in this many turns.
    rounds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    reviews: { type: 'string', default: '1000000' },
    // Offered rates, one run each: the target rate, then one the service sustains.
    'privacy-rate': { type: 'string', default: '1000,300' },
    'privacy-seconds': { type: 'string', default: '10' },
    // The sustained scenario's schedule, and the windows it reports, in seconds.
    'sustained-duration': { type: 'string', default: '600' },
    'sustained-window': { type: 'string', default: '60' },
    // Where the results go; by default a new file under bench/results/ named by date and revision.
    out: { type: 'string' },
    // Writes a V8 CPU profile of each API server run into this folder (see bench/profile-summary.ts).
    profile: { type: 'string' },
  },
});

const ctx: BenchContext = {
  settings: {
    root: process.cwd(),
    duration: Number(args.duration),
    rounds: Number(args.rounds),
    connections: Number(args.connections),
    reviews: Number(args.reviews),
    privacyRates: (args['privacy-rate'] ?? '').split(',').map(Number).filter(Boolean),
    privacySeconds: Number(args['privacy-seconds']),
    sustainedSeconds: Number(args['sustained-duration']),
    sustainedWindowSeconds: Number(args['sustained-window']),
    profile: args.profile,
    logs: mkdtempSync(join(tmpdir(), 'rpa-bench-logs-')),
    postgresUrl: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
  },
  rows: [],
  sections: [],
  children: new Set<ChildProcess>(),
};

async function main(): Promise<void> {
  const { root, connections, duration, rounds } = ctx.settings;
  const started = new Date();
  const revision = revisionOf(root);
  const build = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('build failed');
  const scenarios = new Set((args.scenarios ?? '').split(','));
  const tracing = scenarios.has('tracing');
  const sink = tracing ? await startOtlpSink(root) : null;
  for (const db of (args.db ?? '').split(',').filter(Boolean)) {
    const target = await targetFor(db, ctx.settings);
    try {
      log(`${target.name}: seeding demo tenant`);
      const demo = seedDemo(root, target);
      if (scenarios.has('author') || tracing) await authorScenario(ctx, target, demo);
      if (scenarios.has('token') || tracing) await tokenScenario(ctx, target, demo);
      if (scenarios.has('privacy')) await privacyScenario(ctx, target, demo);
      if (scenarios.has('overload')) await overloadScenario(ctx, target, demo);
      if (scenarios.has('sustained')) await sustainedScenario(ctx, target, demo);
      if (scenarios.has('config')) await configScenario(ctx, target);
    } finally {
      await target.cleanup();
    }
  }
  if (sink) await stop(sink);
  const body = [
    `${connections} connections, ${duration} s per measurement (author and token: in ${rounds} turns with their references); load from a separate process (autocannon).`,
    '',
    table(ctx.rows),
    '',
    `Targets (a privacy rate counts when every request was accepted at ≥ 98 % of it):`,
    '',
    targetVerdicts(ctx.rows),
    ...ctx.sections.flatMap((section) => ['', section]),
  ].join('\n');
  const { text, path } = recordRun(
    root,
    { title: 'npm run bench', started, revision, options: args, body },
    args.out,
  );
  process.stdout.write(`${text}\n`);
  log(`results written to ${relative(process.cwd(), path)}`);
}

/** The discarding OTLP receiver the traced servers export to (bench/otlp-sink.ts), in `ctx.otlpSink`. */
async function startOtlpSink(root: string) {
  const port = await freePort();
  const sink = await start(
    ctx.children,
    process.execPath,
    ['--import', 'tsx', join(root, 'bench/otlp-sink.ts')],
    {
      env: { PORT: String(port) },
    },
  );
  ctx.otlpSink = `http://127.0.0.1:${port}`;
  return sink;
}

process.on('SIGINT', () => {
  for (const c of ctx.children) c.kill('SIGKILL');
  rmSync(ctx.settings.logs, { recursive: true, force: true });
  process.exit(130);
});

main()
  .catch(async (err) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? err.message : String(err)}\n`);
    for (const c of ctx.children) c.kill('SIGKILL');
    process.exitCode = 1;
  })
  .finally(() => rmSync(ctx.settings.logs, { recursive: true, force: true }));
