import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isDatabaseUnavailable } from '../../src/store/database-unavailable.js';

describe('isDatabaseUnavailable', () => {
  it('knows a database that went away or cannot be reached', () => {
    for (const err of [
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated due to connection timeout'),
      new Error('timeout exceeded when trying to connect'),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('connection failure'), { code: '08006' }),
      Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' }),
    ]) {
      assert.equal(isDatabaseUnavailable(err), true, err.message);
    }
  });

  it('leaves refusals of the call itself, and anything else, to the caller', () => {
    for (const err of [
      Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }),
      Object.assign(new Error('deadlock detected'), { code: '40P01' }),
      Object.assign(new Error('syntax error'), { code: '42601' }),
      Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }),
      new Error('a bug'),
      'a string',
      undefined,
    ]) {
      assert.equal(isDatabaseUnavailable(err), false, String(err));
    }
  });
});
