import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { after, before, beforeEach, describe, it } from 'node:test';
import { type AdminApi, withAdminApi } from '../../src/cli/admin-api.js';
import { CliError } from '../../src/cli/cli-error.js';
import type { CliIo } from '../../src/cli/cli-io.js';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly key: string | undefined;
  readonly at: number;
}

type Answer = (req: IncomingMessage, res: ServerResponse) => void;

/** Drops the connection before any answer is written: the client sees `socket hang up`. */
const hangUp: Answer = (req) => req.socket.destroy();
const created: Answer = (_req, res) => {
  res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":"x"}');
};

/** The admin API over HTTP, against a server that answers each request with the next of `answers`. */
describe('the admin API over HTTP (RPA_ADMIN_URL)', () => {
  const seen: Seen[] = [];
  let answers: Answer[] = [];
  const server = createServer((req, res) => {
    seen.push({
      method: req.method ?? '',
      url: req.url ?? '',
      key: req.headers['idempotency-key'] as string | undefined,
      at: Date.now(),
    });
    req.resume();
    req.on('end', () => (answers.shift() ?? created)(req, res));
  });
  let url = '';
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    seen.length = 0;
    answers = [];
  });

  const io = (): CliIo => ({
    env: { RPA_ADMIN_URL: url, RPA_ADMIN_TOKEN: 'rpa_at_test' },
    stdin: Readable.from([]),
    stdout: { write: () => true },
    stderr: { write: () => true },
    exitCode: 0,
  });
  const using = <T>(work: (api: AdminApi) => Promise<T>) => withAdminApi(io(), work);

  it('sends a create again with the same Idempotency-Key when the connection is lost before an answer', async () => {
    answers = [hangUp, hangUp];
    const answer = await using((api) => api.create('/production/clients', { name: 'Acme-EN_GB' }));
    assert.deepEqual(answer, { id: 'x' });
    assert.equal(seen.length, 3, 'two tries after the first');
    const [first, ...retries] = seen;
    assert.match(first?.key ?? '', /^[0-9a-f-]{36}$/);
    for (const retry of retries) assert.equal(retry.key, first?.key, 'the same key, so it creates once');
    assert.ok(seen.every((s) => s.method === 'POST' && s.url === '/admin/v1/production/clients'));
    assert.ok(
      (seen[2]?.at ?? 0) - (seen[1]?.at ?? 0) >= (seen[1]?.at ?? 0) - (seen[0]?.at ?? 0) - 50,
      'backs off',
    );
  });

  it('gives up after a bounded number of tries', async () => {
    answers = [hangUp, hangUp, hangUp, hangUp];
    await assert.rejects(
      using((api) => api.create('/production/clients', { name: 'Acme-EN_GB' })),
      (err) => err instanceof CliError && /cannot reach/.test(err.message),
    );
    assert.equal(seen.length, 3);
  });

  it('does not send an action again whose answer was lost: it may have been carried out', async () => {
    answers = [hangUp];
    await assert.rejects(
      using((api) => api.call('POST', '/production/applications/a/retire-secret')),
      (err) => err instanceof CliError && /cannot reach/.test(err.message),
    );
    assert.equal(seen.length, 1);
    assert.equal(seen[0]?.key, undefined, 'an action takes no Idempotency-Key');
  });

  it('sends a read again when the connection is lost', async () => {
    answers = [hangUp];
    assert.deepEqual(await using((api) => api.call('GET', '/production/clients')), { id: 'x' });
    assert.equal(seen.length, 2);
  });

  it('waits after a 503 as long as a Retry-After HTTP-date asks (RFC 9110 §10.2.3)', async () => {
    // HTTP-dates count whole seconds: two seconds on, rounded up, is more than one second away.
    const retryAt = new Date(Math.ceil((Date.now() + 2000) / 1000) * 1000).toUTCString();
    answers = [(_req, res) => res.writeHead(503, { 'retry-after': retryAt }).end()];
    assert.deepEqual(await using((api) => api.create('/production/clients', { name: 'A' })), { id: 'x' });
    assert.equal(seen.length, 2);
    const waited = (seen[1]?.at ?? 0) - (seen[0]?.at ?? 0);
    assert.ok(waited >= 1000, `waited ${waited} ms before trying again at ${retryAt}`);
    assert.equal(seen[1]?.key, seen[0]?.key);
  });

  it('waits after a 503 as many seconds as Retry-After says', async () => {
    answers = [(_req, res) => res.writeHead(503, { 'retry-after': '1' }).end()];
    assert.deepEqual(await using((api) => api.call('GET', '/production/clients')), { id: 'x' });
    const waited = (seen[1]?.at ?? 0) - (seen[0]?.at ?? 0);
    assert.ok(waited >= 900, `waited ${waited} ms`);
  });
});
