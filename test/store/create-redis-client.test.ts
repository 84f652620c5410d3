import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { createRedisClient } from '../../src/store/create-redis-client.js';
import { freePort, killRedis, startRedis } from '../helpers/redis-server.js';

/**
 * A replica of the server on `primaryPort`, keeping nothing on disk (its own directory, so that
 * no dump file of the working directory is loaded); resolves once it is in sync.
 */
async function startReplica(port: number, primaryPort: number, dir: string): Promise<ChildProcess> {
  const args = ['--port', String(port), '--save', '', '--appendonly', 'no', '--dir', dir];
  const child = spawn('redis-server', [...args, '--replicaof', '127.0.0.1', String(primaryPort)], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const probe = new Redis(`redis://127.0.0.1:${port}`, { retryStrategy: () => 50 });
  probe.on('error', () => {});
  try {
    for (let i = 0; i < 100; i++) {
      const info = await probe.info('replication').catch(() => '');
      if (/master_link_status:up/.test(info)) return child;
      await sleep(100);
    }
    throw new Error('the replica did not get in sync within 10 s');
  } finally {
    probe.disconnect();
  }
}

describe('the shared Redis client, on a server that became a replica', () => {
  let primary: ChildProcess | undefined;
  let replica: ChildProcess | undefined;
  let primaryPort: number;
  let replicaPort: number;
  let dir: string | undefined;

  before(async () => {
    primaryPort = await freePort();
    replicaPort = await freePort();
    primary = await startRedis(primaryPort);
    // Sent at once rather than after the 5 s a primary waits for more replicas by default.
    const direct = new Redis(`redis://127.0.0.1:${primaryPort}`);
    await direct.config('SET', 'repl-diskless-sync-delay', '0');
    direct.disconnect();
    dir = mkdtempSync(join(tmpdir(), 'rpa-replica-'));
    replica = await startReplica(replicaPort, primaryPort, dir);
  });
  after(async () => {
    await Promise.all([killRedis(replica), killRedis(primary)]);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('drops the connection on READONLY (made again to the primary the Sentinels name), and sends nothing twice', async () => {
    const client = createRedisClient({
      url: `redis://127.0.0.1:${replicaPort}`,
      sentinel: null,
      commandTimeoutMs: 1000,
    });
    assert.ok(client);
    client.on('error', () => {});
    const direct = new Redis(`redis://127.0.0.1:${primaryPort}`);
    try {
      await new Promise((resolve) => client.once('ready', resolve));
      const reconnecting = new Promise((resolve) => client.once('reconnecting', resolve));
      await assert.rejects(client.incr('rpa:readonly-probe'), /^ReplyError: READONLY|READONLY/);
      await Promise.race([
        reconnecting,
        sleep(2000).then(() => assert.fail('no reconnection after READONLY')),
      ]);
      // Not sent again anywhere: the replica refused it, and the primary never got it.
      await sleep(300);
      assert.equal(await direct.get('rpa:readonly-probe'), null);
    } finally {
      client.disconnect();
      direct.disconnect();
    }
  });
});
