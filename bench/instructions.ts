/**
 * Instructions per request on the server's main thread, counted by valgrind's callgrind. On the
 * shared machines this project is measured on, the CPU time of a request moves by a third from one
 * run to the next; an instruction count does not depend on the neighbours (runs of one build here
 * within about 2 %, from the JIT's and the GC's timing), so a change of a few percent or more can
 * be told from noise. It compares two builds of a hot path; it says nothing of throughput, caches
 * or the kernel's share.
 *
 *   node --import tsx bench/instructions.ts [--scenario token|author|healthz] [--warmup 6000]
 *        [--n 3000] [--connections 20] [--build DIR] [--keep DIR] [--functions N] [--log-level warn]
 *
 * The server is DIR's `dist/cli/main.js` (this project by default; a `git worktree` of another
 * commit, built, to compare), on a SQLite file seeded with the demo tenant, run under callgrind
 * with counting off; `--warmup` requests let the JIT settle, then the `--n` measured requests are
 * counted. The main thread's count is what a request costs the event loop; the other threads
 * (V8's compiler and GC helpers, libuv's pool) are shown apart. Needs valgrind (Debian package
 * `valgrind`: callgrind and callgrind_control); under it the server runs some fifty times slower.
 * `--functions N` then prints the N functions that took the most instructions per request, by
 * their own code: JavaScript by name, file and line (V8's `--perf-basic-prof` map names the code
 * callgrind saw only as addresses; harness/callgrind-functions.ts), native code by symbol.
 * `--keep DIR` leaves callgrind's files there, for `callgrind_annotate`.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { instructionsByFunction } from './harness/callgrind-functions.js';
import { freePort, runLoadAsync, start, stop } from './harness/processes.js';
import { answerEnv } from './harness/reference-servers.js';
import { authorPath, getToken, seedDemo, targetFor, tokenForm } from './harness/targets.js';

const { values: args } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'token' },
    warmup: { type: 'string', default: '6000' },
    n: { type: 'string', default: '3000' },
    connections: { type: 'string', default: '20' },
    build: { type: 'string' },
    server: { type: 'string', default: 'service' },
    'log-level': { type: 'string' },
    // Keeps callgrind's files in DIR, for callgrind_annotate.
    keep: { type: 'string' },
    // Also prints the N functions, JavaScript and native, that took the most of the main thread.
    functions: { type: 'string', default: '0' },
  },
});
const root = join(import.meta.dirname, '..');
const build = resolve(args.build ?? root);
const n = Number(args.n);
const topFunctions = Number(args.functions);

const target = await targetFor('sqlite', { postgresUrl: '', redisUrl: '' });
const outDir = args.keep ? resolve(args.keep) : mkdtempSync(join(tmpdir(), 'rpa-callgrind-'));
if (args.keep) mkdirSync(outDir, { recursive: true });
const children = new Set<import('node:child_process').ChildProcess>();
try {
  const demo = seedDemo(build, target);
  const host = '127.0.0.1';
  // callgrind_control finds the server by a file named after USER and HOST: both must agree.
  const env = { USER: userInfo().username, LOGNAME: userInfo().username, HOST: host };
  const callgrind = [
    '--tool=callgrind',
    '--separate-threads=yes',
    '--instr-atstart=no',
    // V8 writes machine code into its heap and rewrites it: every change must be seen.
    '--smc-check=all',
    `--callgrind-out-file=${join(outDir, 'callgrind.out')}`,
    process.execPath,
    // Where V8 put each function's code, to name the addresses callgrind counted (--functions).
    // (It also starts V8's log, kept with callgrind's files instead of the working directory.)
    ...(topFunctions > 0 ? ['--perf-basic-prof', `--logfile=${join(outDir, 'v8-%p.log')}`] : []),
  ];
  // Under valgrind a server starts in tens of seconds, minutes on a busy machine.
  const underValgrindWithinMs = 10 * 60_000;
  // The access log is on by default; `--log-level warn` counts the server without it.
  const apiEnv: Record<string, string> = { ...target.env, WORKER_ENABLED: 'false' };
  if (args['log-level']) apiEnv.LOG_LEVEL = args['log-level'];
  const apiPort = await freePort();
  const apiBase = `http://${host}:${apiPort}`;
  const serve = [join(build, 'dist/cli/main.js'), 'serve'];
  // A reference is counted instead: the service runs plainly, to say which bytes it answers.
  const counted = args.server === 'service';
  const api = await start(
    children,
    counted ? 'valgrind' : process.execPath,
    counted ? [...callgrind, ...serve] : serve,
    {
      env: { ...apiEnv, ...env, PORT: String(apiPort) },
      readyUrl: `${apiBase}/readyz`,
      readyWithinMs: underValgrindWithinMs,
      stdoutFile: join(outDir, 'api-stdout.log'),
    },
  );
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const { path, route, ...request } = await (async () => {
    switch (args.scenario) {
      case 'token': {
        const path = '/auth/v1/oauth2/token';
        return { path, route: path, method: 'POST', headers: form, body: tokenForm(demo) };
      }
      case 'healthz':
        return { path: '/healthz', route: '/healthz', method: 'GET' };
      case 'author': {
        const token = await getToken(apiBase, demo);
        const path = await authorPath(apiBase, demo, token);
        const route = '/response/v1/clientResponses/:guid/author';
        return { path, route, method: 'GET', headers: { authorization: `Bearer ${token}` } };
      }
      default:
        throw new Error(`unknown scenario ${args.scenario}`);
    }
  })();
  const server = await (async () => {
    if (counted) return api;
    // It answers the bytes the service answered this very request.
    const sample = await fetch(`${apiBase}${path}`, request);
    const answer = { body: await sample.text(), contentType: sample.headers.get('content-type') ?? '' };
    if (!sample.ok) throw new Error(`${args.scenario} failed: ${sample.status} ${answer.body}`);
    await stop(api);
    const script = { fastify: 'bench/framework-floor-server.ts', 'node:http': 'bench/ceiling-server.ts' }[
      args.server
    ];
    if (!script) throw new Error(`unknown server ${args.server}`);
    return start(children, 'valgrind', [...callgrind, '--import', 'tsx', join(root, script)], {
      env: { ...env, PORT: String(apiPort), ...answerEnv(answer), ROUTE: route, METHOD: request.method },
      readyWithinMs: underValgrindWithinMs,
    });
  })();
  const job = { ...request, url: `http://${host}:${apiPort}${path}` };
  const connections = Number(args.connections);
  const control = (...argv: string[]) => {
    const r = spawnSync('callgrind_control', [...argv, String(server.pid)], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`callgrind_control ${argv.join(' ')}: ${r.stderr}`);
  };
  await runLoadAsync(root, { ...job, connections, amount: Number(args.warmup) });
  control('--instr=on');
  const load = await runLoadAsync(root, { ...job, connections, amount: n });
  control('--instr=off');
  control('--dump');
  await stop(server);
  if (load.non2xx > 0 || load.errors > 0)
    throw new Error(`${load.non2xx} answers not 2xx, ${load.errors} errors`);

  /** Instructions of each thread in the dump (files `callgrind.out.1-<thread>`). */
  const threads = readdirSync(outDir)
    .filter((f) => /^callgrind\.out\.1-\d+$/.test(f))
    .map((f) => {
      const totals = /^totals: (\d+)/m.exec(readFileSync(join(outDir, f), 'utf8'));
      return { file: f, thread: Number(f.split('-').pop()), instructions: Number(totals?.[1] ?? 0) };
    })
    .sort((a, b) => a.thread - b.thread);
  const [main, ...others] = threads;
  if (!main) throw new Error('callgrind wrote no counts');
  const perRequest = (count: number) => Math.round(count / n).toLocaleString('en');
  const othersTotal = others.reduce((sum, t) => sum + t.instructions, 0);
  process.stdout.write(
    `${args.scenario}, ${args.server === 'service' ? build : `${args.server} answering its bytes`}: ${perRequest(main.instructions)} instructions per request on the main thread, ` +
      `${perRequest(othersTotal)} on the other threads (${n} requests after ${args.warmup})\n`,
  );
  if (topFunctions > 0) {
    const perfMap = `/tmp/perf-${server.pid}.map`;
    try {
      for (const f of instructionsByFunction(join(outDir, main.file), perfMap, n).slice(0, topFunctions)) {
        process.stdout.write(
          `${Math.round(f.perRequest).toLocaleString('en').padStart(8)}  ${f.name.slice(0, 120)}\n`,
        );
      }
    } finally {
      // Kept with callgrind's files (--keep), to name the addresses of callers too.
      if (args.keep) copyFileSync(perfMap, join(outDir, 'perf.map'));
      rmSync(perfMap, { force: true });
    }
  }
} finally {
  for (const child of children) child.kill('SIGKILL');
  await target.cleanup();
  if (!args.keep) rmSync(outDir, { recursive: true, force: true });
}
