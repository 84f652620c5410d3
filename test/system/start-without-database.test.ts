import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rpaProcessAgainst } from '../helpers/rpa-cli.js';
import { type Child, spawnRpa, stop, waitForOutput } from './child-processes.js';
import { findPostgresBin, type OwnPostgres, startOwnPostgres } from './own-postgres.js';
import { isRunning } from './rpa-process.js';

const pgBin = findPostgresBin();
const skip = pgBin ? false : 'the PostgreSQL server binaries (/usr/lib/postgresql/*/bin) are not installed';

/** `rpa serve` and `rpa worker` on a PostgreSQL of the suite's own, stopped when they start. */
describe('starting while PostgreSQL is down', { skip }, () => {
  let postgres: OwnPostgres;
  let serve: Child & { port: number };
  let worker: Child;
  let base = '';

  before(async () => {
    postgres = await startOwnPostgres({ bin: pgBin ?? '', maxConnections: 20 });
    await postgres.stopImmediately();
    const env = {
      DATABASE_URL: postgres.url,
      REDIS_URL: '',
      SHUTDOWN_DELAY_MS: '0',
      WORKER_ENABLED: 'false',
    };
    const child = spawnRpa(['serve'], { PORT: '0', HOST: '127.0.0.1', ...env });
    const m = await waitForOutput(child, /Server listening at http:\/\/127\.0\.0\.1:(\d+)/);
    serve = { ...child, port: Number(m[1]) };
    base = `http://127.0.0.1:${serve.port}`;
    worker = spawnRpa(['worker'], env);
  });

  after(async () => {
    await Promise.all([serve && stop(serve), worker && stop(worker)]);
    postgres?.destroy();
  });

  it('stays alive, live and unready, and answers each API 503 with Retry-After in its shape', async () => {
    await waitForOutput(serve, /not started: the database is not reachable; waiting/);
    await waitForOutput(worker, /not started: the database is not reachable; waiting/);
    assert.equal((await fetch(`${base}/healthz`)).status, 200);
    const ready = await fetch(`${base}/readyz`);
    assert.equal(ready.status, 503);
    assert.equal(ready.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    assert.match(((await ready.json()) as { detail: string }).detail, /database is not reachable/);

    const token = await fetch(`${base}/auth/v1/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    assert.equal(token.status, 503);
    assert.match(token.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    assert.equal(((await token.json()) as { error: string }).error, 'temporarily_unavailable');

    const list = await fetch(`${base}/response/v1/clientResponses?passkey=x`);
    assert.equal(list.status, 503);
    assert.match(list.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    assert.equal(list.headers.get('content-type'), 'application/vnd.api+json; charset=utf-8');
    assert.equal(
      ((await list.json()) as { errors: { code: string }[] }).errors[0]?.code,
      'SERVICE_UNAVAILABLE',
    );

    const privacy = await fetch(`${base}/privacy/v1/requests?passkey=x`, { method: 'POST', body: '{}' });
    assert.equal(privacy.status, 503);
    assert.match(privacy.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    assert.equal(privacy.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    assert.equal(((await privacy.json()) as { code: string }).code, 'SERVICE_UNAVAILABLE');

    assert.ok(isRunning(serve), serve.output());
    assert.ok(isRunning(worker), worker.output());
    const waits = serve.output().match(/not started: /g) ?? [];
    assert.equal(waits.length, 1, 'one line for the whole wait');
  });

  it('exits 0 at once on SIGTERM while it waits', async () => {
    const env = { DATABASE_URL: postgres.url, REDIS_URL: '', WORKER_ENABLED: 'false' };
    const waiting = [
      spawnRpa(['serve'], { PORT: '0', HOST: '127.0.0.1', ...env }),
      spawnRpa(['worker'], env),
    ];
    for (const child of waiting) await waitForOutput(child, /not started: the database is not reachable/);
    const signalled = Date.now();
    const codes = await Promise.all(waiting.map((child) => stop(child)));
    assert.deepEqual(codes, [0, 0], waiting.map((c) => c.output()).join('\n'));
    assert.ok(Date.now() - signalled < 3_000, 'no drain delay for an instance that never served');
  });

  it('becomes ready by itself once PostgreSQL starts, and issues a token within 15 s', async () => {
    const started = Date.now();
    await postgres.start();
    let ready = 0;
    while (Date.now() - started < 15_000) {
      ready = (await fetch(`${base}/readyz`)).status;
      if (ready === 200) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(ready, 200, serve.output());
    const demo = rpaProcessAgainst({ databaseUrl: postgres.url, schema: undefined })('demo', '--json');
    assert.equal(demo.code, 0, demo.stderr);
    const { clientId, clientSecret } = JSON.parse(demo.stdout).production;
    const token = await fetch(`${base}/auth/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
      },
      body: 'grant_type=client_credentials',
    });
    assert.equal(token.status, 200, await token.clone().text());
    assert.ok(Date.now() - started < 15_000, 'ready and a token issued within 15 s');
    await waitForOutput(worker, /privacy worker started/);
    assert.ok(isRunning(worker));
  });
});
