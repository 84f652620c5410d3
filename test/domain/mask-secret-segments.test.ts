import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateCredential } from '../../src/domain/credentials.js';
import { maskSecretSegments, maskSecretWords } from '../../src/domain/mask-secret-segments.js';

const passkey = generateCredential('passkey');
const random = passkey.slice('rpa_pk_'.length);
const percentEncodeAll = (s: string) =>
  [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

describe('masking secrets in a path', () => {
  it('masks each segment carrying one, as sent or percent-encoded, with or without its prefix', () => {
    for (const sent of [
      passkey,
      random,
      passkey.replaceAll('_', '%5F'),
      percentEncodeAll(passkey),
      `x%ZZ${passkey}`,
    ]) {
      assert.equal(
        maskSecretSegments(`/privacy/v1/forgetRequests/${sent}/export`),
        '/privacy/v1/forgetRequests/[REDACTED]/export',
      );
    }
  });

  it('keeps every other segment as sent, and masks what `alsoMask` picks', () => {
    const path = '/response/v1/clientResponses/Acme-EN_GB/reviews/demo-acme-en_gb-1/%';
    assert.equal(maskSecretSegments(path), path);
    assert.equal(
      maskSecretSegments(path, (s) => s.includes('%')),
      '/response/v1/clientResponses/Acme-EN_GB/reviews/demo-acme-en_gb-1/[REDACTED]',
    );
  });

  it('masks the words of a message that carry one', () => {
    assert.equal(
      maskSecretWords(`no resource at GET /privacy/v1/${random}; not "${passkey}"`),
      'no resource at GET /privacy/v1/[REDACTED] not [REDACTED]',
    );
  });
});
