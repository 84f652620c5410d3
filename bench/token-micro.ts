// In-process cost of issuing and of checking one access token (docs/design.md, Access tokens):
// `node --import tsx bench/token-micro.ts [iterations]`. SQLite in memory; after the first call
// neither touches the database, so the numbers are signing and verifying alone.
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { createRuntime } from '../src/runtime.js';
import { authenticateClient } from '../src/services/auth/authenticate-client.js';
import { issueAccessToken } from '../src/services/auth/issue-access-token.js';
import { seedDemo } from '../src/services/tenancy/seed-demo.js';

const iterations = Number(process.argv[2] ?? 100_000);
const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', WORKER_ENABLED: 'false', LOG_LEVEL: 'warn' });
const runtime = await createRuntime(config, { logger: createLogger('warn') });
try {
  const demo = await seedDemo(runtime.deps, { environment: 'production' });
  const client = await authenticateClient(runtime.deps, {
    environment: 'production',
    clientId: demo.clientId,
    clientSecret: demo.clientSecret,
  });
  const issue = () => issueAccessToken(runtime.deps, { client, scope: 'offline_access' });
  const token = (await issue()).accessToken;
  await runtime.http.tokens.verify(token, 'production');

  const time = async (label: string, run: () => unknown) => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i += 1) await run();
    const micros = Number(process.hrtime.bigint() - start) / 1000 / iterations;
    process.stdout.write(`${label}: ${micros.toFixed(2)} µs per call (${iterations} calls)\n`);
  };
  await time('issue', issue);
  await time('verify', () => runtime.http.tokens.verify(token, 'production'));
} finally {
  await runtime.close();
}
