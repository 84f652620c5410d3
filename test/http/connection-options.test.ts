import assert from 'node:assert/strict';
import type net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type ListeningApp, listenTestApp, rawRequest } from '../helpers/raw-http.js';

/** Writes one byte of `text` at a time, as a slow or hostile client does, until stopped. */
function trickle(text: string, everyMs: number) {
  return (socket: net.Socket) => {
    let i = 0;
    const timer = setInterval(() => {
      if (i < text.length && socket.writable) socket.write(text[i++] as string);
    }, everyMs);
    return () => clearInterval(timer);
  };
}

describe('connection timeouts (real socket, short configured timeouts)', () => {
  let t: ListeningApp;
  before(async () => {
    t = await listenTestApp({
      REQUEST_TIMEOUT_MS: '300',
      HEADERS_TIMEOUT_MS: '200',
      KEEP_ALIVE_TIMEOUT_MS: '1500',
    });
  });
  after(() => t.close());

  it('answers 408 and closes a connection whose body arrives a byte at a time', async () => {
    const head =
      'POST /auth/v1/oauth2/token?passkey=rpa_pk_SHOULD_NOT_APPEAR HTTP/1.1\r\nHost: localhost\r\n' +
      'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n';
    const res = await rawRequest(t.port, head, {
      awaitClose: true,
      trickle: trickle('grant_type=client_credentials&client_id=x'.padEnd(100, 'x'), 40),
    });
    assert.equal(res.status, 408, res.text);
    assert.equal(res.headers.connection, 'close');
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(JSON.parse(res.body).error, 'invalid_request');
    assert.ok(!res.text.includes('SHOULD_NOT_APPEAR'));
    assert.equal(res.closedByServer, true);
  });

  it('closes the connection of a slow body the server answered before reading it', async () => {
    const head =
      'POST /privacy/v1/forgetRequests HTTP/1.1\r\nHost: localhost\r\n' +
      'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n';
    const res = await rawRequest(t.port, head, {
      awaitClose: true,
      trickle: trickle('{"authorId":"a"'.padEnd(100, ' '), 40),
    });
    assert.equal(res.status, 401, res.text);
    // Said up front, so the client does not reuse the connection, and nothing follows the answer
    // (a second, unrequested 408 once the body timed out would desynchronise a keep-alive client).
    assert.equal(res.headers.connection, 'close', res.text);
    assert.equal((res.text.match(/^HTTP\/1\.1 /gm) ?? []).length, 1, res.text);
    assert.equal(res.closedByServer, true);
  });

  it('answers 408 and closes a connection whose header section never ends', async () => {
    const res = await rawRequest(t.port, 'GET /healthz HTTP/1.1\r\nHost: localhost\r\n', {
      awaitClose: true,
      trickle: trickle(`X-Slow: ${'a'.repeat(500)}`, 40),
    });
    assert.equal(res.status, 408, res.text);
    assert.equal(res.headers.connection, 'close');
    assert.equal(res.closedByServer, true);
  });

  it('closes an idle connection that never sends a request', async () => {
    const res = await rawRequest(t.port, '', { awaitClose: true });
    assert.equal(res.closedByServer, true);
  });

  it('keeps an idle keep-alive connection for KEEP_ALIVE_TIMEOUT_MS and says so', async () => {
    assert.equal(t.app.server.keepAliveTimeout, 1500);
    const res = await rawRequest(t.port, 'GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    assert.equal(res.status, 200);
    assert.equal(res.headers['keep-alive'], 'timeout=1');
  });
});
