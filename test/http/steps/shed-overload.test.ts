import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import net from 'node:net';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { eventually } from '../../helpers/eventually.js';
import { listenTestApp, type RawResponse, rawRequest } from '../../helpers/raw-http.js';
import { createTestApp } from '../../helpers/test-runtime.js';

const host = { host: 'localhost' };
const TOKEN_FORM = 'grant_type=client_credentials&client_id=someone&client_secret=secret';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  json(): unknown;
}

/** Each API's call and the 503 it is refused with, in that API's own error shape. */
type Body = { code?: string; error?: string; errors?: { code: string }[] };

const CALLS = [
  {
    api: 'Response API',
    method: 'GET',
    url: '/response/v1/clientResponses/any/author?passkey=x',
    mediaType: 'application/vnd.api+json',
    code: (body: Body) => body.errors?.[0]?.code,
  },
  {
    api: 'Privacy API',
    method: 'GET',
    url: '/privacy/v1/forgetRequests?passkey=x',
    mediaType: 'application/problem+json',
    code: (body: Body) => body.code,
  },
  {
    api: 'token endpoint',
    method: 'POST',
    url: '/auth/v1/oauth2/token',
    mediaType: 'application/json',
    code: (body: Body) => (body.error === 'temporarily_unavailable' ? 'SERVICE_UNAVAILABLE' : body.error),
  },
] as const;

function assertShed(call: (typeof CALLS)[number], answer: Answer): void {
  assert.equal(answer.status, 503, `${call.api}: ${JSON.stringify(answer.json())}`);
  assert.equal(answer.headers['retry-after'], '1', call.api);
  assert.ok(String(answer.headers['content-type']).startsWith(call.mediaType), call.api);
  assert.equal(call.code(answer.json() as Body), 'SERVICE_UNAVAILABLE', call.api);
}

function shedCount(text: string, reason: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`rpa_http_requests_shed_total{reason="${reason}"}`));
  return Number(line?.split(' ').at(-1) ?? 0);
}

describe('shedding under overload', () => {
  it('refuses calls with 503 and Retry-After in each API’s shape while the event loop lags, never the probes', async () => {
    const t = await createTestApp({ SHED_MAX_EVENT_LOOP_DELAY_MS: '50', SHED_MAX_IN_FLIGHT: '0' });
    try {
      const before = await t.app.inject({ url: CALLS[0].url, headers: host });
      assert.notEqual(before.statusCode, 503);
      // A second of work that never yields, as a burst of calls gives the loop.
      const until = Date.now() + 1000;
      while (Date.now() < until);
      await sleep(5);
      for (const call of CALLS) {
        const answer = await t.app.inject({
          method: call.method,
          url: call.url,
          headers: { ...host, 'content-type': 'application/x-www-form-urlencoded' },
          ...(call.method === 'POST' ? { payload: TOKEN_FORM } : {}),
        });
        assertShed(call, { status: answer.statusCode, headers: answer.headers, json: () => answer.json() });
      }
      for (const url of ['/healthz', '/readyz'])
        assert.equal((await t.app.inject({ url, headers: host })).statusCode, 200, url);
      assert.equal(shedCount(await t.runtime.http.metrics.scrape(), 'event_loop_delay'), CALLS.length);
      // Once the loop keeps time again, calls are served.
      await eventually(async () => {
        const after = await t.app.inject({ url: CALLS[0].url, headers: host });
        assert.notEqual(after.statusCode, 503);
      });
    } finally {
      await t.close();
    }
  });

  it('refuses calls past the bound on calls in flight until one of them ends, never the probes', async () => {
    const t = await listenTestApp({ SHED_MAX_EVENT_LOOP_DELAY_MS: '0', SHED_MAX_IN_FLIGHT: '2' });
    const held: net.Socket[] = [];
    // Two token calls whose forms never arrive stay in flight until their clients go away.
    const hold = () =>
      rawRequest(
        t.port,
        'POST /auth/v1/oauth2/token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ngrant_type=',
        {
          limitMs: 60_000,
          trickle: (socket) => {
            held.push(socket);
            return () => {};
          },
        },
      );
    const holding = [hold(), hold()];
    const send = (method: string, url: string, body = '') =>
      rawRequest(
        t.port,
        `${method} ${url} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    const asAnswer = (r: RawResponse): Answer => ({ ...r, json: () => JSON.parse(r.body) });
    try {
      await eventually(async () => assert.equal((await send('GET', CALLS[0].url)).status, 503));
      for (const call of CALLS)
        assertShed(
          call,
          asAnswer(await send(call.method, call.url, call.method === 'POST' ? TOKEN_FORM : '')),
        );
      for (const url of ['/healthz', '/readyz']) assert.equal((await send('GET', url)).status, 200, url);
      // Refused after its body has arrived, a call leaves its connection open for the next one.
      const kept = await rawRequest(
        t.port,
        `POST /auth/v1/oauth2/token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${TOKEN_FORM.length}\r\n\r\n${TOKEN_FORM}`,
      );
      assert.equal(kept.status, 503);
      assert.notEqual(kept.headers.connection, 'close');
      assert.ok(shedCount(await t.runtime.http.metrics.scrape(), 'in_flight') >= CALLS.length + 1);
      // A client that gives up frees its place as surely as an answer does.
      for (const socket of held) socket.destroy();
      await Promise.all(holding);
      await eventually(async () => assert.notEqual((await send('GET', CALLS[0].url)).status, 503));
    } finally {
      for (const socket of held) socket.destroy();
      await t.close();
    }
  });
  it('frees the places of pipelined calls whose client went away before their answers had the connection', async () => {
    const t = await listenTestApp({ SHED_MAX_EVENT_LOOP_DELAY_MS: '0', SHED_MAX_IN_FLIGHT: '3' });
    const tokenCall = `POST /auth/v1/oauth2/token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${TOKEN_FORM.length}\r\n\r\n${TOKEN_FORM}`;
    // The connection is reset once its three calls have arrived, while the first is still being
    // answered: the two queued behind it never get a response 'close' of their own, only their
    // request's.
    const parsed = new Map<net.Socket, number>();
    t.app.server.prependListener('request', (req: IncomingMessage) => {
      const count = (parsed.get(req.socket) ?? 0) + 1;
      parsed.set(req.socket, count);
      if (count === 3) process.nextTick(() => req.socket.destroy());
    });
    const pipelineAndReset = () =>
      new Promise<void>((resolve) => {
        const socket = net.connect(t.port, '127.0.0.1', () => socket.write(tokenCall.repeat(3)));
        socket.on('error', () => {});
        socket.on('close', () => resolve());
      });
    const send = () =>
      rawRequest(t.port, `GET ${CALLS[1].url} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    try {
      for (let round = 0; round < 5; round++) {
        await pipelineAndReset();
        await sleep(50);
      }
      await eventually(async () => assert.notEqual((await send()).status, 503), 3_000);
    } finally {
      await t.close();
    }
  });
});
