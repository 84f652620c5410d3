import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { detachedKey } from '../../src/services/detached-key.js';
import { seedDemo } from '../../src/services/tenancy/seed-demo.js';
import { heapAfterCollection } from '../helpers/heap.js';
import { createTestApp, type TestApp } from '../helpers/test-runtime.js';
import { postForm, requestToken, TOKEN_PATH } from '../http/auth/oauth-fixtures.js';

describe('detached keys', () => {
  it('equal the value they copy, lone surrogates and NULs included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (value) => {
        assert.equal(detachedKey(value), value);
      }),
      { numRuns: 500 },
    );
    assert.equal(detachedKey('a\uD800b\uDFFF\u0000'), 'a\uD800b\uDFFF\u0000');
  });
});

const REQUESTS = 24;
const PAD_CHARS = 1_000_000;
/** What REQUESTS kept requests would hold: a quarter of it is far above what their entries take. */
const BOUND = (REQUESTS * PAD_CHARS) / 4;

// V8 keeps a substring as a view of its parent: an id or a token cut from a request and kept as a
// key (the throttle's digests, the caches of client ids and of verified tokens) would keep the
// whole request text alive with it.
describe('what requests leave in memory', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('keeps no token request body alive through the client ids it remembers', async () => {
    const send = (i: number) =>
      postForm(t.app, TOKEN_PATH, {
        remoteAddress: `192.0.2.${i + 2}`,
        body: `grant_type=client_credentials&client_id=unknown-client-${String(i).padStart(40, '0')}&client_secret=wrong&pad=${'a'.repeat(PAD_CHARS)}`,
      });
    // The steps' own caches and code warmed first, so only what the bodies leave is weighed.
    assert.equal((await send(-1)).statusCode, 401);
    const before = heapAfterCollection();
    for (let i = 0; i < REQUESTS; i += 1) assert.equal((await send(i)).statusCode, 401);
    const kept = heapAfterCollection() - before;
    assert.ok(kept < BOUND, `${(kept / 1e6).toFixed(1)} MB still reachable`);
  });

  it('keeps no Authorization header alive through the tokens it has verified', async () => {
    const demo = await seedDemo(t.runtime.deps, { environment: 'production' });
    const tokens: string[] = [];
    for (let i = 0; i <= REQUESTS; i += 1) {
      const res = await requestToken(t.app, demo.clientId, demo.clientSecret);
      assert.equal(res.statusCode, 200, res.body);
      tokens.push(res.json().access_token);
    }
    // RFC 6750 §2.1 allows the spaces; the token is cut from the header's text.
    const call = (token: string) =>
      t.app.inject({
        url: `/response/v1/clientResponses/00000000-0000-4000-8000-000000000000/author?passkey=${demo.responsePasskey}`,
        headers: { host: 'localhost:8080', authorization: `Bearer ${token}${' '.repeat(PAD_CHARS)}` },
      });
    assert.equal((await call(tokens[REQUESTS] as string)).statusCode, 404);
    const before = heapAfterCollection();
    for (let i = 0; i < REQUESTS; i += 1) assert.equal((await call(tokens[i] as string)).statusCode, 404);
    const kept = heapAfterCollection() - before;
    assert.ok(kept < BOUND, `${(kept / 1e6).toFixed(1)} MB still reachable`);
  });
});
