import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { Value } from 'typebox/value';
import { newTokenId, signAccessToken, tokenMacKey } from '../../../src/domain/access-token.js';
import { ENVIRONMENTS } from '../../../src/domain/environment.js';
import { TokenResponse } from '../../../src/http/auth/auth-schemas.js';
import { tokenAnswerJson } from '../../../src/http/auth/token-handlers.js';
import { buildServer } from '../../../src/http/build-server.js';
import { type DemoCredentials, seedDemo } from '../../../src/services/tenancy/seed-demo.js';
import { createTestRuntime } from '../../helpers/test-runtime.js';
import { requestToken, TOKEN_PATH } from './oauth-fixtures.js';

/** A claim field as tokens may carry it: 1 to 64 bytes of UTF-8. */
const field = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 16 })
  .filter((s) => Buffer.byteLength(s) <= 64);

describe('the token answer written as text', () => {
  it('is the JSON of the answer, in the schema, for any token the server signs', () => {
    const key = tokenMacKey(randomBytes(32));
    fc.assert(
      fc.property(
        field,
        field,
        field,
        fc.constantFrom(...ENVIRONMENTS),
        fc.integer({ min: 0, max: 2 ** 48 - 1 }),
        fc.integer({ min: 1, max: 10_000_000 }),
        (keyId, applicationId, secretId, environment, expiresAt, expiresIn) => {
          const answer = {
            access_token: signAccessToken(
              { keyId, applicationId, secretId, environment, expiresAt, tokenId: newTokenId() },
              key,
            ),
            token_type: 'Bearer' as const,
            expires_at: expiresAt,
            expires_in: expiresIn,
            scope: 'offline_access' as const,
            refresh_token: 'null' as const,
          };
          const text = tokenAnswerJson(answer);
          assert.equal(text, JSON.stringify(answer));
          assert.ok(Value.Check(TokenResponse, JSON.parse(text)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses times that are not integers rather than write them', () => {
    const answer = {
      access_token: 'rpa_at_x',
      token_type: 'Bearer' as const,
      expires_at: 1,
      expires_in: 1,
      scope: 'offline_access' as const,
      refresh_token: 'null' as const,
    };
    for (const bad of [Number.NaN, 1.5, Number.POSITIVE_INFINITY]) {
      assert.throws(() => tokenAnswerJson({ ...answer, expires_at: bad }), /integers/);
      assert.throws(() => tokenAnswerJson({ ...answer, expires_in: bad }), /integers/);
    }
  });
});

describe('a token answer that fails after the handler', () => {
  let app: FastifyInstance;
  let runtime: Awaited<ReturnType<typeof createTestRuntime>>;
  let demo: DemoCredentials;
  let failNext = false;

  before(async () => {
    runtime = await createTestRuntime();
    app = await buildServer(runtime.http);
    // Something after the handler fails once: the answer must still be an OAuth error.
    app.addHook('onSend', (request, _reply, _payload, done) => {
      if (failNext && request.url.startsWith(TOKEN_PATH)) {
        failNext = false;
        done(new Error('a step after the handler failed'));
        return;
      }
      done();
    });
    await app.ready();
    demo = await seedDemo(runtime.deps, { environment: 'production' });
  });
  after(async () => {
    await app.close();
    await runtime.close();
  });

  it('is answered in the OAuth error shape, as JSON', async () => {
    failNext = true;
    const res = await requestToken(app, demo.clientId, demo.clientSecret);
    assert.equal(failNext, false, 'the failing step ran');
    assert.equal(res.statusCode, 500, res.body);
    assert.deepEqual(Object.keys(JSON.parse(res.body)).sort(), ['error', 'error_description']);
    assert.equal(res.json().error, 'server_error');
    const next = await requestToken(app, demo.clientId, demo.clientSecret);
    assert.equal(next.statusCode, 200, next.body);
  });
});
