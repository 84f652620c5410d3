/**
 * A separate process of the multi-process limit test (limits-across-processes.test.ts): opens the
 * store named by its environment, says "ready", waits for "go" on stdin, then charges CALLS calls
 * to each of PASSKEY_IDS at once and prints what the limiter decided as one JSON line.
 *
 * With ROUNDS, it does that ROUNDS times, moving its clock on by LEASE_MS between rounds, so the
 * limiter leases ahead of demand as in steady traffic (LAST_CALLS calls in the last round, so it
 * ends up holding allowance it did not spend). With HOLD set, it prints its outcome and
 * then waits, still holding what it leased, to be killed.
 */
import { createInterface } from 'node:readline';
import { loadConfig } from '../../src/config.js';
import type { Passkey } from '../../src/domain/passkey.js';
import { createLogger } from '../../src/logger.js';
import { createRuntime } from '../../src/runtime.js';
import { findPasskeyListing } from '../../src/store/repositories/passkeys.js';

const env = process.env;
const config = loadConfig({
  DATABASE_URL: env.DATABASE_URL,
  DATABASE_SCHEMA: env.DATABASE_SCHEMA,
  REDIS_URL: env.REDIS_URL,
  ...(env.LEASE_MS ? { LIMIT_LEASE_MS: env.LEASE_MS } : {}),
  WORKER_ENABLED: 'false',
  LOG_LEVEL: 'silent',
});
// Every process counts in the same windows, whatever the wall clock does during the burst.
let now = Number(env.FIXED_NOW);
const runtime = await createRuntime(config, {
  logger: createLogger('silent'),
  migrate: false,
  clock: () => now,
});
const rounds = Number(env.ROUNDS ?? 1);
const passkeys: Passkey[] = [];
for (const id of (env.PASSKEY_IDS ?? '').split(',')) {
  const passkey = await findPasskeyListing(runtime.deps.store.db, id);
  if (!passkey) throw new Error(`no passkey ${id}`);
  passkeys.push(passkey);
}
const calls = Number(env.CALLS);

process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line === 'go') break;
}
lines.close();

const decisions = [];
for (let round = 0; round < rounds; round += 1) {
  if (round > 0) now += config.limitLeaseMs;
  const inRound = round === rounds - 1 && env.LAST_CALLS ? Number(env.LAST_CALLS) : calls;
  decisions.push(
    ...(await Promise.all(
      passkeys.flatMap((passkey) =>
        Array.from({ length: inRound }, async () => ({
          id: passkey.id,
          ...(await runtime.http.limiter.consume(passkey)),
        })),
      ),
    )),
  );
}
const outcome: Record<string, { allowed: number; rate: number; quota: number }> = {};
for (const d of decisions) {
  outcome[d.id] ??= { allowed: 0, rate: 0, quota: 0 };
  const o = outcome[d.id]!;
  if (d.allowed) o.allowed += 1;
  else o[d.exceeded ?? 'rate'] += 1;
}
process.stdout.write(`${JSON.stringify(outcome)}\n`);
// Killed while holding its lease: nothing is given back.
if (env.HOLD) setInterval(() => {}, 60_000);
else await runtime.close();
