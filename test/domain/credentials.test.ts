import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { newTokenId, signAccessToken, tokenMacKey } from '../../src/domain/access-token.js';
import { generateCredential, mentionsSecretCredential } from '../../src/domain/credentials.js';
import { uuidV7 } from '../../src/domain/uuid-v7.js';

const withoutPrefix = (credential: string) => credential.replace(/^rpa_[a-z]+_/, '');

function accessToken(): string {
  return signAccessToken(
    {
      keyId: randomUUID(),
      applicationId: randomUUID(),
      environment: 'production',
      secretId: randomUUID(),
      expiresAt: Date.now() + 3_600_000,
      tokenId: newTokenId(),
    },
    tokenMacKey(Buffer.alloc(32, 7)),
  );
}

describe('secret credentials are recognised', () => {
  it('by their prefix, in any case, wherever they are in the text', () => {
    for (const kind of ['passkey', 'clientSecret', 'adminToken'] as const) {
      const value = generateCredential(kind);
      for (const text of [value, value.toUpperCase(), `x${value}`, `/a/${value}/b`]) {
        assert.ok(mentionsSecretCredential(text), text);
      }
    }
    assert.ok(mentionsSecretCredential(accessToken()));
    assert.ok(mentionsSecretCredential('whsec_abc'));
  });

  // A random part lacking either case is missed (about once in 9 million passkeys, the price of
  // reading ids and names as they are); such a draw is not a case of the rule and is drawn again.
  it('by the shape of their random part when sent without the prefix', () => {
    for (let i = 0; i < 50; i++) {
      for (const kind of ['passkey', 'clientSecret', 'adminToken'] as const) {
        let random = withoutPrefix(generateCredential(kind));
        while (!/[a-z]/.test(random) || !/[A-Z]/.test(random))
          random = withoutPrefix(generateCredential(kind));
        for (const text of [random, `/privacy/v1/forgetRequests/${random}`, `clientName=${random}&limit=5`]) {
          assert.ok(mentionsSecretCredential(text), `${kind}: ${text}`);
        }
      }
    }
    assert.ok(mentionsSecretCredential(accessToken().slice('rpa_at_'.length)));
  });

  it('in every maximal run of base64url characters shaped like one, wherever runs start and end', () => {
    // The rule as written in domain/credentials.ts, one run at a time.
    const shaped = (run: string) =>
      ([32, 43].includes(run.length) || run.length >= 83) && /[A-Z]/.test(run) && /[a-z]/.test(run);
    const piece = fc.oneof(
      fc.constantFrom('/', '.', '~', '%', '?', '=', '&', ' ', 'é', 'rpa_pk', '_', '-'),
      fc.string({ unit: fc.constantFrom(...'aZ9_-'), minLength: 1, maxLength: 50 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join('');
        const expected =
          /rpa_cs_|rpa_at_|rpa_pk_|rpa_adm_|whsec_/i.test(text) ||
          (text.match(/[A-Za-z0-9_-]+/g) ?? []).some(shaped);
        assert.equal(mentionsSecretCredential(text), expected, text);
        assert.equal(mentionsSecretCredential(text), expected, 'the same when asked again');
      }),
      { numRuns: 5000 },
    );
  });
});

describe('ids and names are not taken for secrets', () => {
  it('UUIDs in any case or without dashes, client ids, token ids, names and review ids', () => {
    for (let i = 0; i < 200; i++) {
      const uuid = randomUUID();
      const clientId = generateCredential('clientId');
      for (const text of [
        uuid,
        uuid.toUpperCase(),
        uuid.replaceAll('-', ''),
        uuid.replaceAll('-', '').toUpperCase(),
        uuidV7(Date.now()),
        clientId,
        withoutPrefix(clientId),
        newTokenId(),
        `/response/v1/clientResponses/${uuid}/author`,
      ]) {
        assert.equal(mentionsSecretCredential(text), false, text);
      }
    }
    for (const text of [
      'Acme-EN_GB',
      'demo-acme-en_gb-1',
      'acme-hotels-international-en_gb1',
      'ACME-HOTELS-INTERNATIONAL-EN_GB1',
      'a'.repeat(600),
      '/response/v1/clientResponses/Acme-EN_GB/reviews/demo-acme-en_gb-1',
    ]) {
      assert.equal(mentionsSecretCredential(text), false, text);
    }
  });
});
