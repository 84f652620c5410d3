import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type AdminToken, adminTokenState } from '../../src/domain/admin-token.js';

const token: AdminToken = {
  id: 't',
  name: 'job',
  scopes: ['tenancy:read'],
  keyHint: 'abcd',
  createdAt: 1_000,
  expiresAt: null,
  revokedAt: null,
};

describe('adminTokenState', () => {
  it('is active without an expiry, and until the expiry', () => {
    assert.equal(adminTokenState(token, 10 ** 13), 'active');
    assert.equal(adminTokenState({ ...token, expiresAt: 5_000 }, 4_999), 'active');
  });

  it('is expired from the expiry on, and revoked whatever the expiry', () => {
    assert.equal(adminTokenState({ ...token, expiresAt: 5_000 }, 5_000), 'expired');
    assert.equal(adminTokenState({ ...token, expiresAt: 5_000, revokedAt: 2_000 }, 9_000), 'revoked');
  });
});
