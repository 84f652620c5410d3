/**
 * What a given amount of work per request costs a server on this machine, in CPU and in
 * throughput: a bare node:http server answering the same bytes as the ceiling, after spinning
 * for S µs per request, loaded by bench/load.ts (a child process) with 50 connections. Prints, for
 * each S, the server's CPU per request (least of a few rounds), what it costs beyond S, and the
 * throughput as a ratio of S = 0. It shows how much work a route may do and still serve a given
 * share of the ceiling, and that a slower server pays more per request in the kernel than a fast
 * one (its load generator waits more, so each answer has to wake it). `--answers both` measures
 * each S twice: answering at once, and answering at the end of the turn with the turn's other
 * answers, as the service does (src/http/coalesce-answers.ts).
 *
 *   node --import tsx bench/work-curve.ts [--n 40000] [--rounds 3] [--spins 0,5,10,20,40,80]
 *     [--answers now|turn-end|both]
 */

import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runLoadAsync } from './harness/processes.js';
import { ceilingServer } from './harness/reference-servers.js';

const { values: args } = parseArgs({
  options: {
    n: { type: 'string', default: '40000' },
    rounds: { type: 'string', default: '3' },
    spins: { type: 'string', default: '0,5,10,20,40,80' },
    connections: { type: 'string', default: '50' },
    answers: { type: 'string', default: 'now' },
  },
});
const n = Number(args.n);
const rounds = Number(args.rounds);
const spins = (args.spins ?? '').split(',').map(Number);

const modes = args.answers === 'both' ? ['now', 'turn-end'] : [args.answers ?? 'now'];
if (!modes.every((m) => m === 'now' || m === 'turn-end')) throw new Error('--answers: now, turn-end or both');

let spinNs = 0n;
let atTurnEnd = false;
const server = ceilingServer(
  {
    body: Buffer.from('{"data":{"type":"clientResponseAuthor","id":"x","attributes":{"author":"Jane Doe"}}}'),
    contentType: 'application/vnd.api+json',
  },
  () => {
    // Busy work on the event loop, as a route's own synchronous steps would be.
    const until = process.hrtime.bigint() + spinNs;
    while (process.hrtime.bigint() < until);
  },
  { answerAtTurnEnd: () => atTurnEnd },
);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;
const job = { url: `http://127.0.0.1:${port}/`, connections: Number(args.connections), amount: n };

const base = new Map<string, number>();
for (const spin of spins) {
  spinNs = BigInt(Math.round(spin * 1000));
  for (const mode of modes) {
    atTurnEnd = mode === 'turn-end';
    let least = Number.POSITIVE_INFINITY;
    let rate = 0;
    let system = 0;
    for (let i = 0; i < rounds; i++) {
      const before = process.cpuUsage();
      const r = await runLoadAsync(join(import.meta.dirname, '..'), job);
      const used = process.cpuUsage(before);
      const perRequest = (used.user + used.system) / n;
      if (perRequest < least) {
        least = perRequest;
        rate = r.requestsPerSecond;
        system = used.system / n;
      }
    }
    if (!base.has(mode)) base.set(mode, rate);
    process.stdout.write(
      `work ${spin} µs${modes.length > 1 ? `, answered ${mode === 'now' ? 'at once' : 'at the turn end'}` : ''}: ` +
        `${least.toFixed(1)} µs CPU per request (${(least - spin).toFixed(1)} beyond the work, ` +
        `${system.toFixed(1)} in the kernel), ${rate} req/s, ${(rate / (base.get(mode) ?? rate)).toFixed(2)} of no work\n`,
    );
  }
}
server.close();
