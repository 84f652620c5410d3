import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { databaseUnavailable } from '../../../src/services/health/database-unavailable.js';

describe('the answer to a database that cannot serve', () => {
  it('is 503 with Retry-After when PostgreSQL has no connection left (53300)', () => {
    const tooMany = Object.assign(new Error('sorry, too many clients already'), {
      code: '53300',
      severity: 'FATAL',
    });
    const error = databaseUnavailable(tooMany);
    assert.ok(error);
    assert.equal(error.code, 'SERVICE_UNAVAILABLE');
    assert.equal(error.status, 503);
    assert.equal(error.oauthError, 'temporarily_unavailable');
    assert.match(error.headers['retry-after'] ?? '', /^[1-9]\d*$/);
    assert.doesNotMatch(error.detail ?? '', /too many clients/, 'the driver’s words stay inside');
  });

  it('is 503 when no connection of the pool came free in time', () => {
    assert.equal(databaseUnavailable(new Error('timeout exceeded when trying to connect'))?.status, 503);
  });

  it('is nothing for a failure that a retry would not cure', () => {
    const syntax = Object.assign(new Error('syntax error at or near "selec"'), {
      code: '42601',
      severity: 'ERROR',
    });
    assert.equal(databaseUnavailable(syntax), null);
    assert.equal(databaseUnavailable(new TypeError('x is undefined')), null);
  });
});
