import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Value } from 'typebox/value';
import { newTokenId, signAccessToken, tokenMacKey } from '../../../src/domain/access-token.js';
import { ENVIRONMENTS } from '../../../src/domain/environment.js';
import { TokenResponse } from '../../../src/http/auth/auth-schemas.js';
import { tokenAnswerJson } from '../../../src/http/auth/token-handlers.js';

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
});
