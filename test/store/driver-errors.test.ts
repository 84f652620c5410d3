import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  cannotConnect,
  describeOpenFailure,
  isDatabaseError,
  isDatabaseUnavailable,
  isForeignKeyViolation,
} from '../../src/store/driver-errors.js';

/** An error as pg builds one from a PostgreSQL ErrorResponse (pg-protocol's DatabaseError). */
function serverError(code: string, message = 'server error'): Error {
  return Object.assign(new Error(message), { name: 'error', code, severity: 'FATAL' });
}

/** An error as Node's net module reports a failed socket. */
function socketError(code: string): Error {
  return Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, errno: -1, syscall: 'connect' });
}

describe('driver errors that mean the database cannot serve right now', () => {
  it('recognises connection failures of the socket', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']) {
      assert.equal(isDatabaseUnavailable(socketError(code)), true, code);
    }
  });

  it('recognises the pg client and pool messages of a lost or unobtainable connection', () => {
    for (const message of [
      'Connection terminated unexpectedly',
      'Connection terminated',
      'Connection terminated due to connection timeout',
      'timeout exceeded when trying to connect',
      'timeout expired',
      'Client has encountered a connection error and is not queryable',
      'Query read timeout',
    ]) {
      assert.equal(isDatabaseUnavailable(new Error(message)), true, message);
    }
  });

  it('recognises SQLSTATE class 08, shutdowns, recovery and too many connections', () => {
    for (const code of ['08000', '08003', '08006', '08001', '08004', '57P01', '57P02', '57P03', '53300']) {
      assert.equal(isDatabaseUnavailable(serverError(code)), true, code);
    }
    const tooMany = serverError('53300', 'sorry, too many clients already');
    assert.equal(isDatabaseUnavailable(tooMany), true);
    assert.equal(isDatabaseError(tooMany), true, 'still counted as a database error');
  });

  it('recognises a statement cancelled at its deadline (statement_timeout)', () => {
    const cancelled = serverError('57014', 'canceling statement due to statement timeout');
    assert.equal(isDatabaseUnavailable(cancelled), true);
    assert.equal(isDatabaseError(cancelled), true, 'still counted as a database error');
  });

  it('counts connection failures as database errors too', () => {
    assert.equal(isDatabaseError(socketError('ECONNREFUSED')), true);
    assert.equal(isDatabaseError(new Error('Connection terminated unexpectedly')), true);
  });

  it('leaves every other failure alone', () => {
    for (const err of [
      serverError('23505', 'duplicate key value violates unique constraint'),
      serverError('42601', 'syntax error'),
      serverError('40001', 'could not serialize access'),
      Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }),
      new Error('Cannot use a pool after calling end on the pool'),
      new TypeError("Cannot read properties of undefined (reading 'id')"),
      Object.assign(new Error('getaddrinfo ENOTFOUND example.invalid'), { code: 'ENOTFOUND' }),
      undefined,
      null,
      'ECONNRESET',
    ]) {
      assert.equal(isDatabaseUnavailable(err), false, String(err));
    }
  });
});

describe('isDatabaseUnavailable, as the workers meet it', () => {
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
      Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }),
      serverError('53100', 'could not extend file: No space left on device'),
      serverError('25006', 'cannot execute INSERT in a read-only transaction'),
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

describe('describeOpenFailure', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:6543'), { code: 'ECONNREFUSED' });

  it('names the host and port of a PostgreSQL URL, never its user or password', () => {
    const text = describeOpenFailure('postgres://admin:hunter2@db.internal:6543/app', refused);
    assert.equal(text, 'cannot connect to db.internal:6543 (ECONNREFUSED)');
    assert.equal(
      describeOpenFailure('postgresql://u:p@db.internal/app', refused),
      'cannot connect to db.internal:5432 (ECONNREFUSED)',
    );
  });

  it("gives the server's or driver's words when there is no system error code", () => {
    const denied = Object.assign(new Error('password authentication failed for user "u"'), { code: '28P01' });
    assert.equal(
      describeOpenFailure('postgres://u:p@h/db', denied),
      'cannot connect to h:5432 (password authentication failed for user "u")',
    );
    const cantOpen = Object.assign(new Error('unable to open database file'), { code: 'SQLITE_CANTOPEN' });
    assert.equal(
      describeOpenFailure('sqlite:/srv/app.db', cantOpen),
      'cannot open /srv/app.db (unable to open database file)',
    );
  });
});

describe('cannotConnect', () => {
  it("names a Redis URL's host and port, never its password, with the reason only when there is one", () => {
    assert.equal(
      cannotConnect('redis://:hunter2@cache.internal:6380', '6379', 'ECONNREFUSED'),
      'cannot connect to cache.internal:6380 (ECONNREFUSED)',
    );
    assert.equal(cannotConnect('redis://cache.internal', '6379'), 'cannot connect to cache.internal:6379');
  });
});

describe('isForeignKeyViolation', () => {
  it('knows a row that refers to one not there, on PostgreSQL and SQLite, and nothing else', () => {
    assert.equal(isForeignKeyViolation(serverError('23503')), true);
    assert.equal(
      isForeignKeyViolation(
        Object.assign(new Error('FOREIGN KEY constraint failed'), { code: 'SQLITE_CONSTRAINT_FOREIGNKEY' }),
      ),
      true,
    );
    for (const code of ['23505', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT', '08006'])
      assert.equal(isForeignKeyViolation(serverError(code)), false, code);
    assert.equal(isForeignKeyViolation(null), false);
  });
});
