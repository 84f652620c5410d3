/**
 * A separate process of the multi-process limit test (limits-across-processes.test.ts): opens the
 * store named by its environment, says "ready", waits for "go" on stdin, then charges CALLS calls
 * to each of PASSKEY_IDS at once and prints what the limiter decided as one JSON line.
 */
import { createInterface } from 'node:readline';
import { loadConfig } from '../../src/config.js';
import type { Passkey } from '../../src/domain/passkey.js';
import { createLogger } from '../../src/logger.js';
import { createRuntime } from '../../src/runtime.js';
import { findPasskeyById } from '../../src/store/repositories/passkeys.js';

const env = process.env;
const config = loadConfig({
  DATABASE_URL: env.DATABASE_URL,
  DATABASE_SCHEMA: env.DATABASE_SCHEMA,
  REDIS_URL: env.REDIS_URL,
  WORKER_ENABLED: 'false',
  LOG_LEVEL: 'silent',
});
// Every process counts in the same windows, whatever the wall clock does during the burst.
const now = Number(env.FIXED_NOW);
const runtime = await createRuntime(config, {
  logger: createLogger('silent'),
  migrate: false,
  clock: () => now,
});
const passkeys: Passkey[] = [];
for (const id of (env.PASSKEY_IDS ?? '').split(',')) {
  const passkey = await findPasskeyById(runtime.deps.store.db, id);
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

const decisions = await Promise.all(
  passkeys.flatMap((passkey) =>
    Array.from({ length: calls }, async () => ({
      id: passkey.id,
      ...(await runtime.http.limiter.consume(passkey)),
    })),
  ),
);
const outcome: Record<string, { allowed: number; rate: number; quota: number }> = {};
for (const d of decisions) {
  outcome[d.id] ??= { allowed: 0, rate: 0, quota: 0 };
  const o = outcome[d.id]!;
  if (d.allowed) o.allowed += 1;
  else o[d.exceeded ?? 'rate'] += 1;
}
process.stdout.write(`${JSON.stringify(outcome)}\n`);
await runtime.close();
