import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ADMIN_SCOPES, parseAdminScopes } from '../../src/domain/admin-scope.js';

describe('parseAdminScopes', () => {
  it('takes a comma- or space-separated list, each scope once, in catalog order', () => {
    assert.deepEqual(parseAdminScopes('audit:read, tenancy:read tenancy:read,tenancy:write'), {
      scopes: ['tenancy:read', 'tenancy:write', 'audit:read'],
    });
    assert.deepEqual(parseAdminScopes(ADMIN_SCOPES.join(',')), { scopes: [...ADMIN_SCOPES] });
  });

  it('names every unknown scope, a verb that does not exist or a wildcard included', () => {
    assert.deepEqual(parseAdminScopes('tenancy:read,tenancy:*,admin'), { unknown: ['tenancy:*', 'admin'] });
  });

  it('gives no scope for an empty list', () => {
    assert.deepEqual(parseAdminScopes(' , '), { scopes: [] });
  });
});
