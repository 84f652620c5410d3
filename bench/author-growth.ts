/**
 * Whether the author read keeps its throughput as client_responses grows on PostgreSQL. Two
 * runtimes, each on a schema of its own with `--small` responses, read a response's author
 * (getClientResponseAuthor, as the handler calls it) with `--concurrency` reads in flight, long
 * enough for every connection that serves them to keep its plans: a named statement's generic
 * plan is made from its sixth run, with the table's size then. Then one schema grows to `--grown`
 * responses while its runtime keeps reading (a pool closes a connection idle for 10 s, and a new
 * one would plan afresh), and both are measured in turns, so both see the same drift of a shared
 * machine. Prints reads per second of each, and how many sequential scans of client_responses each
 * schema saw while measured.
 *
 * Both schemas are in a database of the run's own: PostgreSQL drops every plan a connection keeps
 * whenever a schema is created or dropped in its database, as other runs on a shared server do.
 * The reads run in this process, without HTTP: on a machine shared with other work, the reads'
 * own cost is what moves with the table, and the HTTP stack's would only add to the noise.
 *
 *   node --import tsx bench/author-growth.ts [--small 500] [--grown 100000] [--concurrency 50]
 *     [--seconds 2] [--rounds 5]
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { createRuntime, type Runtime } from '../src/runtime.js';
import { getClientResponseAuthor } from '../src/services/response/get-client-response.js';
import { seedDemo } from '../src/services/tenancy/seed-demo.js';
import { log } from './harness/log.js';

const { values: args } = parseArgs({
  options: {
    small: { type: 'string', default: '500' },
    grown: { type: 'string', default: '100000' },
    concurrency: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '5' },
  },
});
const small = Number(args.small);
const grown = Number(args.grown);
const concurrency = Number(args.concurrency);
const seconds = Number(args.seconds);
const rounds = Number(args.rounds);

const serverUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const database = `bench_growth_${process.pid}`;
const databaseUrl = Object.assign(new URL(serverUrl), { pathname: `/${database}` }).toString();

interface Subject {
  readonly schema: string;
  readonly runtime: Runtime;
  read(): Promise<unknown>;
}

async function subject(schema: string): Promise<Subject> {
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    DATABASE_SCHEMA: schema,
    LOG_LEVEL: 'warn',
    WORKER_ENABLED: 'false',
  });
  const runtime = await createRuntime(config, { logger: createLogger('warn') });
  const { applicationId } = await seedDemo(runtime.deps, { environment: 'production' });
  const id = randomUUID();
  await sql.query(
    `with author as (
       insert into ${schema}.response_authors (id, environment, application_id, name, created_at)
       values ($2, 'production', $1, 'Support team', 0) returning id),
     review as (select id, client_id from ${schema}.reviews where environment = 'production' limit 1)
     insert into ${schema}.client_responses
     select $3, 'production', review.id, review.client_id, $1, author.id, 'Care', 'Thank you', 'h', null,
       'bench', 0, 0
     from author, review`,
    [applicationId, randomUUID(), id],
  );
  const scope = { environment: 'production', applicationId } as const;
  return { schema, runtime, read: () => getClientResponseAuthor(runtime.deps, { scope, id }) };
}

const sql = new pg.Client({ connectionString: databaseUrl });

/** Copies of a schema's one response until it holds `total`, each on the same review. */
async function fillResponses(schema: string, total: number): Promise<void> {
  await sql.query(
    `insert into ${schema}.client_responses
     select gen_random_uuid()::text, r.environment, r.review_id, r.client_id, r.application_id, r.author_id,
       r.department, r.response, md5(random()::text || g), r.response_by, r.response_source, r.created_at,
       r.updated_at
     from (select * from ${schema}.client_responses limit 1) r,
       generate_series(1, $1::int - (select count(*) from ${schema}.client_responses)::int) g`,
    [total],
  );
}

/** Reads with `concurrency` in flight for `ms`; resolves how many were answered. */
async function readFor(s: Subject, ms: number): Promise<number> {
  const until = performance.now() + ms;
  let reads = 0;
  const worker = async () => {
    while (performance.now() < until) {
      await s.read();
      reads++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return reads;
}

async function seqScans(schema: string): Promise<number> {
  const { rows } = await sql.query<{ n: string }>(
    `select seq_scan as n from pg_stat_user_tables where schemaname = $1 and relname = 'client_responses'`,
    [schema],
  );
  return Number(rows[0]?.n ?? 0);
}

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${database}`);
  try {
    await sql.connect();
    const subjects = [await subject('growth_small'), await subject('growth_grown')];
    const grown_ = subjects[1] as Subject;
    for (const s of subjects) await fillResponses(s.schema, small);
    log(`both at ${small} responses: reading until the connections keep their plans`);
    for (const s of subjects) await readFor(s, 3000);
    log(`growing ${grown_.schema} to ${grown} responses while it is read`);
    let growing = true;
    const growth = fillResponses(grown_.schema, grown).finally(() => {
      growing = false;
    });
    while (growing) await readFor(grown_, 500);
    await growth;
    const before = await Promise.all(subjects.map((s) => seqScans(s.schema)));
    log(`measuring both in ${rounds} turns of ${seconds} s`);
    const perRound: number[][] = [[], []];
    for (let round = 0; round < rounds; round++) {
      for (const [i, s] of subjects.entries())
        perRound[i]!.push((await readFor(s, seconds * 1000)) / seconds);
    }
    // A backend's counts reach pg_stat when its connection closes, if not before.
    for (const s of subjects) await s.runtime.close();
    const after = await Promise.all(subjects.map((s) => seqScans(s.schema)));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const lines = [
      '| responses | reads/s (mean of turns) | each turn | seq scans of client_responses |',
      '|---|---|---|---|',
    ];
    for (const [i, rows] of [small, grown].entries()) {
      const turns = perRound[i]!.map(Math.round).join(', ');
      lines.push(`| ${rows} | ${Math.round(mean(perRound[i]!))} | ${turns} | ${after[i]! - before[i]!} |`);
    }
    const ratios = perRound[1]!.map((r, i) => r / perRound[0]![i]!);
    lines.push(
      '',
      `${grown} over ${small}: ${(mean(perRound[1]!) / mean(perRound[0]!)).toFixed(2)} of the throughput (per turn ${ratios.map((r) => r.toFixed(2)).join(', ')})`,
    );
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await sql.end();
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  }
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
