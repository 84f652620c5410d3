import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { createLogger } from '../../../src/logger.js';
import { createOutageLog } from '../../../src/services/health/create-outage-log.js';
import { reportRedisAtStart } from '../../../src/services/health/report-redis-at-start.js';
import { LogCapture } from '../../helpers/test-runtime.js';

/** A port nothing listens on: taken, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('reportRedisAtStart', () => {
  it('logs one outage when Redis cannot be reached at start', async () => {
    const logs = new LogCapture();
    const outages = createOutageLog(createLogger('info', logs), Date.now, { holdMs: 0 });
    const redis = new Redis(`redis://127.0.0.1:${await closedPort()}`, {
      enableOfflineQueue: false,
      retryStrategy: () => 200,
    });
    redis.on('error', () => {});
    try {
      await reportRedisAtStart({ redis, outages });
      assert.equal(outages.isDown('redis'), true);
      const lines = logs.lines.map((l) => JSON.parse(l).msg);
      assert.deepEqual(lines, ['redis unavailable: outage started']);
    } finally {
      redis.disconnect();
    }
  });

  it('logs nothing without Redis configured', async () => {
    const logs = new LogCapture();
    const outages = createOutageLog(createLogger('info', logs), Date.now);
    await reportRedisAtStart({ redis: null, outages });
    assert.equal(logs.lines.length, 0);
  });
});
