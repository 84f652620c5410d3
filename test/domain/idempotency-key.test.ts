import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  idempotencyKeyHash,
  openAnswer,
  readIdempotencyKey,
  requestFingerprint,
  sealAnswer,
} from '../../src/domain/idempotency-key.js';

const K = 'server hash key';

describe('Idempotency-Key', () => {
  it('takes 1 to 255 printable ASCII characters without spaces', () => {
    assert.equal(
      readIdempotencyKey('9b2f1c3e-0d4a-4c7e-8f00-1a2b3c4d5e6f'),
      '9b2f1c3e-0d4a-4c7e-8f00-1a2b3c4d5e6f',
    );
    // The draft's form, a structured-field string, names the same key as the bare token.
    assert.equal(readIdempotencyKey('"8e03978e"'), '8e03978e');
    assert.equal(readIdempotencyKey('"a\\"b"'), 'a"b');
    for (const bad of ['', 'a b', 'x'.repeat(256), 'é', 'tab\there', '""'])
      assert.throws(() => readIdempotencyKey(bad), { code: 'INVALID_HEADER' });
  });

  it('fingerprints method, path and body, whatever the order of members', () => {
    const a = requestFingerprint(K, 'POST', '/p', { name: 'x', clientNames: ['a', 'b'], n: { y: 1, z: 2 } });
    assert.equal(
      a,
      requestFingerprint(K, 'POST', '/p', { n: { z: 2, y: 1 }, clientNames: ['a', 'b'], name: 'x' }),
    );
    assert.notEqual(
      a,
      requestFingerprint(K, 'POST', '/p', { name: 'x', clientNames: ['b', 'a'], n: { y: 1, z: 2 } }),
    );
    assert.notEqual(
      a,
      requestFingerprint(K, 'POST', '/q', { name: 'x', clientNames: ['a', 'b'], n: { y: 1, z: 2 } }),
    );
    assert.equal(requestFingerprint(K, 'POST', '/p', undefined), requestFingerprint(K, 'POST', '/p', null));
  });

  it('seals an answer that only the same key, scope and caller secret open', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.jsonValue(), (key, answer) => {
        const seal = { idempotencyKey: key, scope: 'admin:a', callerSecret: 's1' };
        const sealed = sealAnswer(seal, answer);
        assert.deepEqual(openAnswer(seal, sealed), JSON.parse(JSON.stringify(answer)));
        assert.throws(() => openAnswer({ ...seal, idempotencyKey: `${key}x` }, sealed));
        assert.throws(() => openAnswer({ ...seal, scope: 'admin:b' }, sealed));
        // The database holds the key's digest and the scope, never the caller's secret.
        assert.throws(() => openAnswer({ ...seal, callerSecret: '' }, sealed));
      }),
      { numRuns: 50 },
    );
  });

  it('stores a key and a fingerprint only as hashes keyed with the server key', () => {
    assert.doesNotMatch(idempotencyKeyHash(K, 'my-key'), /my-key/);
    assert.equal(idempotencyKeyHash(K, 'my-key'), idempotencyKeyHash(K, 'my-key'));
    assert.notEqual(idempotencyKeyHash(K, 'my-key'), idempotencyKeyHash('another server', 'my-key'));
    const body = { emailAddress: 'a@example.com' };
    assert.notEqual(
      requestFingerprint(K, 'POST', '/p', body),
      requestFingerprint('other', 'POST', '/p', body),
    );
  });
});
