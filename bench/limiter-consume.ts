/**
 * In-process cost of charging one call to a passkey: CALLS sequential `limiter.consume` calls on
 * one passkey whose limits are never reached, timed with process.hrtime, on a SQLite file (no
 * REDIS_URL) or on Redis (REDIS_URL set; the database is then a SQLite file as well).
 *
 *   node --import tsx bench/limiter-consume.ts            CALLS=100000 REDIS_URL=redis://127.0.0.1:6379
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { createRuntime } from '../src/runtime.js';
import { createPasskey } from '../src/services/tenancy/create-passkey.js';
import { seedDemo } from '../src/services/tenancy/seed-demo.js';

const calls = Number(process.env.CALLS ?? 100_000);
const dir = mkdtempSync(join(tmpdir(), 'rpa-limiter-bench-'));
const config = loadConfig({
  DATABASE_URL: `sqlite:${join(dir, 'app.db')}`,
  REDIS_URL: process.env.REDIS_URL ?? '',
  WORKER_ENABLED: 'false',
  LOG_LEVEL: 'silent',
});
const runtime = await createRuntime(config, { logger: createLogger('silent') });
try {
  const { applicationId } = await seedDemo(runtime.deps, { environment: 'production' });
  const { passkey } = await createPasskey(runtime.deps, {
    applicationId,
    api: 'response',
    ratePerMinute: 10_000_000,
    quotaPerDay: 1_000_000_000,
  });
  const start = process.hrtime.bigint();
  let half = start;
  for (let i = 0; i < calls; i += 1) {
    if (i === calls / 2) half = process.hrtime.bigint();
    const decision = await runtime.http.limiter.consume(passkey);
    if (!decision.allowed) throw new Error(`call ${i} refused`);
  }
  const end = process.hrtime.bigint();
  const perCall = (from: bigint, n: number) => (Number(end - from) / 1000 / n).toFixed(2);
  const store = config.redisUrl ? 'Redis' : 'SQLite file';
  // The second half shows the steady state, once the first lease period has sized the slices.
  process.stdout.write(
    `${store}: ${calls} calls, ${perCall(start, calls)} µs per consume (second half: ${perCall(half, calls - calls / 2)} µs)\n`,
  );
} finally {
  await runtime.close();
  rmSync(dir, { recursive: true, force: true });
}
