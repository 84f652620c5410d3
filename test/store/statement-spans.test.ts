import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CompiledQuery, type LogEvent } from 'kysely';
import type { SpanOutcome, Tracer, TraceSpan } from '../../src/domain/tracer.js';
import { statementLog, statementName, tracedStatement } from '../../src/store/statement-spans.js';

/** A tracer that records the statements started and how they ended; `active` says whether a span is. */
function recordingTracer(active = true) {
  const started: { system: string; name: string; durationMs: number | undefined; ended?: SpanOutcome }[] = [];
  const tracer = {
    startStatement(system: string, name: string, durationMs?: number): TraceSpan | null {
      if (!active) return null;
      const entry: (typeof started)[number] = { system, name, durationMs };
      started.push(entry);
      return {
        recording: true,
        traceId: '0'.repeat(32),
        carrier: () => ({ traceparent: '' }),
        end(outcome = {}) {
          entry.ended = outcome;
        },
      };
    },
  } as unknown as Tracer;
  return { tracer, started };
}

describe('statement spans', () => {
  it('name a statement by its operation and first table, never a value', () => {
    const cases: [string, string][] = [
      ['select "id" from "client_responses" where "guid" = ?', 'SELECT client_responses'],
      ['insert into "passkeys" ("id", "key_hash") values ($1, $2)', 'INSERT passkeys'],
      ['update "privacy_requests" set "status" = $1 where "id" = $2', 'UPDATE privacy_requests'],
      ['delete from "token_denials" where "expires_at" < $1', 'DELETE token_denials'],
      [
        'select "r".* from unnest($1::text[]) as "k" join "reviews" as "r" on "r"."id" = "k"',
        'SELECT reviews',
      ],
      // Named by the main query, not the expressions before it.
      [
        'with "next" as materialized (select "id" from "webhook_deliveries" limit $1) update "webhook_deliveries" set "lease_owner" = $2 where "id" in (select "next"."id" from "next")',
        'UPDATE webhook_deliveries',
      ],
      ['savepoint batched_write', 'SAVEPOINT'],
      ['select pg_try_advisory_lock(1::int4, hashtext(current_schema())) as locked', 'SELECT'],
      ['set local statement_timeout = 300000', 'SET'],
    ];
    for (const [sql, name] of cases) assert.equal(statementName(sql), name, sql);
  });

  it('record what Kysely ran, with the duration it measured and the error’s code', () => {
    const { tracer, started } = recordingTracer();
    const log = statementLog(tracer, 'sqlite');
    const query = CompiledQuery.raw('select "id" from "reviews" where "id" = ?', ['r-1']);
    log({ level: 'query', isStream: false, query, queryDurationMillis: 2.5 } as LogEvent);
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    log({ level: 'error', error: busy, query, queryDurationMillis: 15 } as LogEvent);
    assert.deepEqual(started, [
      { system: 'sqlite', name: 'SELECT reviews', durationMs: 2.5, ended: { durationMs: 2.5, error: null } },
      {
        system: 'sqlite',
        name: 'SELECT reviews',
        durationMs: 15,
        ended: { durationMs: 15, error: 'SQLITE_BUSY' },
      },
    ]);
  });

  it('time a statement that bypasses Kysely, and run it as it is where no span is recorded', async () => {
    const { tracer, started } = recordingTracer();
    assert.equal(await tracedStatement(tracer, 'sqlite', 'COMMIT', async () => 'done'), 'done');
    const refused = tracedStatement(tracer, 'sqlite', 'BEGIN', () => Promise.reject(new TypeError('closed')));
    await assert.rejects(refused, TypeError);
    assert.deepEqual(
      started.map((s) => [s.name, s.ended]),
      [
        ['COMMIT', {}],
        ['BEGIN', { error: 'TypeError' }],
      ],
    );
    const idle = recordingTracer(false);
    assert.equal(await tracedStatement(idle.tracer, 'sqlite', 'COMMIT', async () => 1), 1);
    assert.deepEqual(idle.started, []);
  });
});
