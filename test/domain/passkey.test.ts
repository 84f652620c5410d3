import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  isPasskeyApi,
  isPasskeyUsable,
  type Passkey,
  passkeyState,
  validatePasskeyExpiry,
  validatePasskeyLimits,
} from '../../src/domain/passkey.js';

const NOW = Date.UTC(2026, 10, 27, 12);

const passkey = (over: Partial<Passkey> = {}): Passkey => ({
  id: 'p',
  environment: 'production',
  applicationId: 'a',
  api: 'response',
  keyHint: 'abcd',
  ratePerMinute: 60,
  quotaPerDay: 1000,
  status: 'active',
  isDefault: true,
  createdAt: NOW - 1000,
  expiresAt: null,
  revokedAt: null,
  ...over,
});

describe('passkey', () => {
  it('is usable while active and before its expiry, the expiry itself excluded', () => {
    assert.equal(isPasskeyUsable(passkey(), NOW), true);
    assert.equal(isPasskeyUsable(passkey({ expiresAt: NOW + 1 }), NOW), true);
    assert.equal(isPasskeyUsable(passkey({ expiresAt: NOW }), NOW), false);
    assert.equal(isPasskeyUsable(passkey({ status: 'revoked', revokedAt: NOW - 1 }), NOW), false);
  });

  it('shows revoked before expired, and expired only once past its expiry', () => {
    assert.equal(passkeyState(passkey(), NOW), 'active');
    assert.equal(passkeyState(passkey({ expiresAt: NOW + 1 }), NOW), 'active');
    assert.equal(passkeyState(passkey({ expiresAt: NOW }), NOW), 'expired');
    assert.equal(passkeyState(passkey({ status: 'revoked', expiresAt: NOW - 5 }), NOW), 'revoked');
  });

  it('takes an expiry only in the future', () => {
    validatePasskeyExpiry(NOW + 1, NOW);
    for (const bad of [NOW, NOW - 1, Number.NaN, 1.5])
      assert.throws(() => validatePasskeyExpiry(bad, NOW), { code: 'INVALID_PROPERTY_VALUE' });
  });

  it('takes limits as whole numbers from 1, naming the option at fault', () => {
    validatePasskeyLimits({ ratePerMinute: 1, quotaPerDay: 1_000_000_000 });
    assert.throws(() => validatePasskeyLimits({ ratePerMinute: 0 }), { field: 'rateLimit' });
    assert.throws(() => validatePasskeyLimits({ quotaPerDay: 2.5 }), { field: 'quota' });
  });

  it('knows its APIs', () => {
    assert.ok(isPasskeyApi('response') && isPasskeyApi('privacy'));
    assert.ok(!isPasskeyApi('graphql'));
  });
});
