import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { buildServer } from '../../../src/http/build-server.js';
import {
  type ListeningApp,
  listenTestApp,
  portOf,
  type RawResponse,
  rawRequest,
} from '../../helpers/raw-http.js';
import { createTestRuntime } from '../../helpers/test-runtime.js';

const SECRET = 'rpa_pk_SHOULD_NOT_APPEAR';
const BIG_HEADER = `X-Big: ${'a'.repeat(20_000)}\r\n`;

function get(path: string, extra = ''): string {
  return `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${extra}\r\n`;
}

/** What every answer the server makes up before routing must have (docs/design.md, Operations). */
function assertEdgeAnswer(res: RawResponse, status: number): void {
  assert.equal(res.status, status, res.text.slice(0, 400));
  assert.match(res.headers['x-request-id'] ?? '', /^[0-9a-f-]{36}$/);
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  assert.ok(!res.text.includes(SECRET), 'the answer echoes the query');
  assert.ok(!res.text.includes('passkey='), 'the answer echoes the query');
}

function assertProblem(res: RawResponse, status: number): Record<string, unknown> {
  assertEdgeAnswer(res, status);
  assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
  const body = JSON.parse(res.body);
  assert.equal(body.status, status);
  assert.equal(typeof body.type, 'string');
  assert.equal(typeof body.title, 'string');
  assert.equal(typeof body.detail, 'string');
  assert.equal(typeof body.code, 'string');
  return body;
}

function assertJsonApiError(res: RawResponse, status: number, path: string): void {
  assertEdgeAnswer(res, status);
  assert.equal(res.headers['content-type'], 'application/vnd.api+json; charset=utf-8');
  const body = JSON.parse(res.body);
  assert.equal(body.httpCode, status);
  assert.equal(body.requestURI, path);
  assert.equal(body.errors[0].status, String(status));
  assert.equal(typeof body.errors[0].code, 'string');
}

function assertOAuthError(res: RawResponse, status: number): void {
  assertEdgeAnswer(res, status);
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(res.headers['cache-control'], 'no-store');
  const body = JSON.parse(res.body);
  assert.equal(body.error, 'invalid_request');
  assert.equal(typeof body.error_description, 'string');
}

/** RFC 9112 §9.6: a server that closes the connection says so, or pooled clients reuse a dead socket. */
function assertClosed(res: RawResponse): void {
  assert.equal(res.headers.connection, 'close');
  assert.equal(res.closedByServer, true);
}

describe('answers made before routing (real socket)', () => {
  let t: ListeningApp;
  before(async () => {
    t = await listenTestApp();
  });
  after(() => t.close());

  describe('header section too large (431)', () => {
    it('answers in the Privacy API shape under /privacy, and closes with Connection: close', async () => {
      const res = await rawRequest(t.port, get(`/privacy/v1/forgetRequests?passkey=${SECRET}`, BIG_HEADER), {
        awaitClose: true,
      });
      const body = assertProblem(res, 431);
      assert.equal(body.instance, '/privacy/v1/forgetRequests');
      assertClosed(res);
    });

    it('answers in the JSON:API shape under /response and /contentmanagement', async () => {
      for (const prefix of ['/response/v1', '/contentmanagement/v1']) {
        const path = `${prefix}/clientResponses/x/author`;
        const res = await rawRequest(t.port, get(`${path}?passkey=${SECRET}`, BIG_HEADER), {
          awaitClose: true,
        });
        assertJsonApiError(res, 431, path);
        assertClosed(res);
      }
    });

    it('answers in the RFC 6749 shape under /auth/v1', async () => {
      const res = await rawRequest(
        t.port,
        `POST /auth/v1/oauth2/token?passkey=${SECRET} HTTP/1.1\r\nHost: localhost\r\n${BIG_HEADER}\r\n`,
        { awaitClose: true },
      );
      assertOAuthError(res, 431);
      assertClosed(res);
    });
  });

  describe("requests Node's parser refuses (400)", () => {
    it('answers a malformed header line in the shape of the API the path names', async () => {
      const path = '/response/v1/clientResponses/x';
      const res = await rawRequest(t.port, get(`${path}?passkey=${SECRET}`, 'Bad Header Line\r\n'), {
        awaitClose: true,
      });
      assertJsonApiError(res, 400, path);
      assertClosed(res);
    });

    it('names the path with a secret in it masked, in the answer and the log line', async () => {
      const random = 'Ab3dEf6hIj9lMn2pQr5tUv8xYz1B4c7E';
      for (const [path, shown] of [
        [`/response/v1/clientResponses/${SECRET}`, '/response/v1/clientResponses/[REDACTED]'],
        [`/response/v1/clientResponses/${random}/author`, '/response/v1/clientResponses/[REDACTED]/author'],
      ] as const) {
        const res = await rawRequest(t.port, get(path, 'Bad Header Line\r\n'), { awaitClose: true });
        assertJsonApiError(res, 400, shown);
        assert.ok(!res.text.includes(random));
      }
      const logs = t.runtime.logs.text();
      assert.match(logs, /client error/);
      for (const secret of [SECRET, random]) assert.ok(!logs.includes(secret), 'a log line has the secret');
    });

    it('answers an unparseable request line as RFC 9457 problem details', async () => {
      const res = await rawRequest(t.port, `\u0001\u0002 ${SECRET}\r\n\r\n`, { awaitClose: true });
      const body = assertProblem(res, 400);
      assert.equal(body.instance, undefined);
      assertClosed(res);
    });
  });

  describe('URLs the router refuses', () => {
    it('answers a malformed percent-encoding without echoing the URL (400)', async () => {
      const res = await rawRequest(t.port, get(`/privacy/v1/forgetRequests/%?passkey=${SECRET}`));
      const body = assertProblem(res, 400);
      assert.equal(body.instance, '/privacy/v1/forgetRequests/%');
    });

    it('answers an over-long path parameter in the JSON:API shape (414)', async () => {
      const path = `/response/v1/clientResponses/${'a'.repeat(600)}`;
      const res = await rawRequest(t.port, get(`${path}?passkey=${SECRET}`));
      assertEdgeAnswer(res, 414);
      assert.equal(res.headers['content-type'], 'application/vnd.api+json; charset=utf-8');
      const body = JSON.parse(res.body);
      assert.equal(body.httpCode, 414);
      assert.equal(body.errors[0].status, '414');
      assert.ok(body.requestURI.startsWith('/response/v1/clientResponses/aaa'));
    });
  });

  it('lets a keep-alive client go on after a 431 on a pooled connection', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const call = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const req = http.get(
          {
            host: '127.0.0.1',
            port: t.port,
            path: '/healthz',
            agent,
            headers: { host: 'localhost', ...headers },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
      });
    try {
      for (let i = 0; i < 5; i++) {
        assert.equal(await call({ 'x-big': 'a'.repeat(20_000) }), 431);
        assert.equal(await call({}), 200);
      }
    } finally {
      agent.destroy();
    }
  });
});

describe('requests that arrive while the server shuts down (real socket)', () => {
  it('answers them 503 in the shape of their API, and closes the connection', async () => {
    const runtime = await createTestRuntime();
    const app = await buildServer(runtime.http);
    // A request in flight keeps its connection open after close() starts; the next one on that
    // connection arrives while the server is closing.
    let enter!: () => void;
    let release!: () => void;
    const entered = new Promise<void>((r) => {
      enter = r;
    });
    const gate = new Promise<void>((r) => {
      release = r;
    });
    app.get('/test-only/slow', { schema: { hide: true } }, async () => {
      enter();
      await gate;
      return { ok: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const socket = net.connect(portOf(app), '127.0.0.1');
    socket.setEncoding('latin1');
    let text = '';
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    const ended = new Promise<void>((r) => socket.on('close', () => r()));
    try {
      socket.write('GET /test-only/slow HTTP/1.1\r\nHost: localhost\r\n\r\n');
      await entered;
      const closing = app.close();
      await new Promise((r) => setTimeout(r, 50));
      socket.write(`GET /privacy/v1/forgetRequests?passkey=${SECRET} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
      await new Promise((r) => setTimeout(r, 50));
      release();
      await Promise.race([ended, new Promise((r) => setTimeout(r, 5000))]);
      await closing;
      const second = text.slice(text.indexOf('HTTP/1.1', 1));
      const end = second.indexOf('\r\n\r\n');
      const head = second.slice(0, end).toLowerCase();
      assert.match(head, /^http\/1\.1 503 /, second);
      assert.match(head, /\r\nconnection: close/);
      assert.match(head, /\r\nx-request-id: [0-9a-f-]{36}/);
      assert.match(head, /\r\ncontent-type: application\/problem\+json; charset=utf-8/);
      assert.ok(!second.includes(SECRET));
      const body = JSON.parse(second.slice(end + 4));
      assert.equal(body.status, 503);
      assert.equal(body.instance, '/privacy/v1/forgetRequests');
    } finally {
      socket.destroy();
      release();
      await app.close();
      await runtime.close();
    }
  });
});
