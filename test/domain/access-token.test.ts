import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  type AccessTokenClaims,
  accessTokenSignedWith,
  newTokenId,
  parseAccessToken,
  signAccessToken,
  tokenMacKey,
} from '../../src/domain/access-token.js';
import { CREDENTIAL_PREFIX } from '../../src/domain/credentials.js';

describe('token ids', () => {
  it('are 128 bits, and never repeat across refills of the block they are cut from', () => {
    const ids = Array.from({ length: 1000 }, newTokenId);
    for (const id of ids) assert.equal(Buffer.from(id, 'base64url').length, 16);
    assert.equal(new Set(ids).size, ids.length);
  });

  it('differ from one block to the next (the block is refilled, not reused)', () => {
    const first = Array.from({ length: 256 }, newTokenId);
    const second = Array.from({ length: 256 }, newTokenId);
    const seen = new Set(first);
    assert.equal(second.filter((id) => seen.has(id)).length, 0);
  });
});

const vectorClaims: AccessTokenClaims = {
  keyId: 'a2f4c7de-31b6-4f0e-9a55-0e6b5d1c8a10',
  applicationId: '6c1f0a3e-8d2b-4b7a-b9e4-2f5d7c9a1b30',
  environment: 'staging',
  secretId: 'c9e2b7a4-5f13-4d68-8a0c-7b3e1d6f2a95',
  expiresAt: 1795699536362,
  tokenId: 'AAECAwQFBgcICQoLDA0ODw',
};

describe('access token signatures', () => {
  // During a rolling upgrade, instances of two builds check each other's tokens: the bytes a
  // token is made of are fixed, whatever the code that makes them.
  it('are fixed bytes, for a short key and for one longer than a SHA-256 block', () => {
    assert.equal(
      signAccessToken(vectorClaims, tokenMacKey(Buffer.from('the key of a test vector, 32 by.'))),
      'rpa_at_AQEBohgIceoAAQIDBAUGBwgJCgsMDQ4PJGEyZjRjN2RlLTMxYjYtNGYwZS05YTU1LTBlNmI1ZDFjOGExMCQ2YzFmMGEzZS04ZDJiLTRiN2EtYjllNC0yZjVkN2M5YTFiMzAkYzllMmI3YTQtNWYxMy00ZDY4LThhMGMtN2IzZTFkNmYyYTk1zyV3aCUihxyp-70nerfJ2FPLJv5Vksx0gSa2yEX7f5M',
    );
    assert.equal(
      signAccessToken(
        { ...vectorClaims, keyId: 'ключ', environment: 'production' },
        tokenMacKey(Buffer.alloc(100, 0xab)),
      ),
      'rpa_at_AQABohgIceoAAQIDBAUGBwgJCgsMDQ4PCNC60LvRjtGHJDZjMWYwYTNlLThkMmItNGI3YS1iOWU0LTJmNWQ3YzlhMWIzMCRjOWUyYjdhNC01ZjEzLTRkNjgtOGEwYy03YjNlMWQ2ZjJhOTWqHBuV-I383B6d23sQ2c-WkM86Fw2FI5IsZAMZNK_FpQ',
    );
  });

  it('are HMAC-SHA256 of the prefix and the claims, whatever the key and claims', () => {
    // Any text of 1 to 64 UTF-8 bytes, as the format allows.
    const field = fc
      .string({ minLength: 1, maxLength: 64, unit: 'grapheme' })
      .filter((text) => Buffer.byteLength(text) <= 64);
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 200 }),
        fc.record({
          keyId: field,
          applicationId: field,
          environment: fc.constantFrom('production' as const, 'staging' as const),
          secretId: field,
          expiresAt: fc.integer({ min: 0, max: 2 ** 48 - 1 }),
          tokenId: fc
            .uint8Array({ minLength: 16, maxLength: 16 })
            .map((b) => Buffer.from(b).toString('base64url')),
        }),
        (secret, claims) => {
          const key = Buffer.from(secret);
          const token = signAccessToken(claims, tokenMacKey(key));
          const bytes = Buffer.from(token.slice(CREDENTIAL_PREFIX.accessToken.length), 'base64url');
          const body = bytes.subarray(0, -32);
          const expected = createHmac('sha256', Buffer.from(secret))
            .update(CREDENTIAL_PREFIX.accessToken)
            .update(body)
            .digest();
          assert.deepEqual(bytes.subarray(-32), expected);
          const parsed = parseAccessToken(token);
          assert.ok(parsed);
          assert.deepEqual(parsed.claims, { ...claims });
          assert.ok(accessTokenSignedWith(parsed, tokenMacKey(key)));
          const other = Buffer.from(secret);
          other[0] = (other[0] as number) ^ 1;
          assert.equal(accessTokenSignedWith(parsed, tokenMacKey(other)), false);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('are each the HMAC of their own claims when one prepared key signs and checks many, between other keys', () => {
    const materials = [Buffer.alloc(32, 3), Buffer.alloc(64, 4), Buffer.alloc(65, 5)];
    const keys = materials.map(tokenMacKey);
    const tokens = Array.from({ length: 30 }, (_, i) => {
      const claims = { ...vectorClaims, expiresAt: vectorClaims.expiresAt + i, tokenId: newTokenId() };
      return { material: i % 3, token: signAccessToken(claims, keys[i % 3] as (typeof keys)[number]) };
    });
    for (const { material, token } of tokens) {
      const bytes = Buffer.from(token.slice(CREDENTIAL_PREFIX.accessToken.length), 'base64url');
      const expected = createHmac('sha256', materials[material] as Buffer)
        .update(CREDENTIAL_PREFIX.accessToken)
        .update(bytes.subarray(0, -32))
        .digest();
      assert.deepEqual(bytes.subarray(-32), expected);
      const parsed = parseAccessToken(token);
      assert.ok(parsed);
      assert.deepEqual(
        keys.map((key) => accessTokenSignedWith(parsed, key)),
        keys.map((_, i) => i === material),
      );
    }
  });

  it('refuse to sign claims the format cannot carry', () => {
    const key = tokenMacKey(Buffer.alloc(32, 1));
    assert.throws(() => signAccessToken({ ...vectorClaims, keyId: '' }, key), /out of range/);
    assert.throws(() => signAccessToken({ ...vectorClaims, secretId: 'é'.repeat(33) }, key), /out of range/);
    assert.throws(() => signAccessToken({ ...vectorClaims, tokenId: 'AAEC' }, key), /16 bytes/);
    assert.throws(
      () => signAccessToken({ ...vectorClaims, environment: 'qa' as AccessTokenClaims['environment'] }, key),
      /unknown environment/,
    );
    assert.throws(
      () => signAccessToken({ ...vectorClaims, tokenId: `${vectorClaims.tokenId}AA` }, key),
      /16 bytes/,
    );
    assert.throws(() => signAccessToken({ ...vectorClaims, tokenId: '!'.repeat(22) }, key), /16 bytes/);
  });
});
