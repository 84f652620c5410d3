import type { LogEvent } from 'kysely';
import { errorType, type StatementSystem, type Tracer } from '../domain/tracer.js';

/*
 * A span per statement, made where every statement passes, so repositories know nothing of it
 * (docs/tracing.md): Kysely's query log for what its executor runs, and `tracedStatement` for what
 * bypasses it (SQLite's direct reads and transaction control). Only a store opened with a tracer
 * installs either; without one a statement costs what it did.
 */

/** The first word, for what is not a query (BEGIN, SAVEPOINT, SET, VACUUM). */
const FIRST_WORD = /^[\s(]*([A-Za-z]+)/;
const OPERATION = /\b(select|insert|update|delete)\b/i;
/** A name followed at once by `(` is a function's (`from unnest(...)`), not a table's. */
const TABLE_AFTER = /\b(?:from|into|update|join)\s+"?([A-Za-z_][A-Za-z0-9_]*)\b"?(?!\()/i;
const NAMES_KEPT = 1000;
const names = new Map<string, string>();

/** The statement without what is between parentheses (CTEs' bodies, subqueries, lists): `()` instead. */
function outermost(sql: string): string {
  let depth = 0;
  let out = '';
  for (const ch of sql) {
    if (ch === '(') depth++;
    if (depth === 0) out += ch;
    if (ch === ')') depth--;
    if (ch === '(' && depth === 1) out += '(';
  }
  return out;
}

/**
 * The statement's operation and the first table it names, never a value: `SELECT client_responses`
 * (the semantic conventions' db.query.summary). A statement with CTEs is named by its main query.
 */
export function statementName(sql: string): string {
  let name = names.get(sql);
  if (name === undefined) {
    const outer = outermost(sql);
    const operation = OPERATION.exec(outer);
    const table = operation && TABLE_AFTER.exec(outer.slice(operation.index))?.[1];
    const verb = (operation?.[1] ?? FIRST_WORD.exec(sql)?.[1] ?? 'statement').toUpperCase();
    name = table ? `${verb} ${table}` : verb;
    // Texts differ only by the count of their placeholders (an `in` list), so few are kept.
    if (names.size >= NAMES_KEPT) names.clear();
    names.set(sql, name);
  }
  return name;
}

/**
 * Kysely's `log` option: each statement its executor ran, recorded once done with the duration
 * Kysely measured, in the context of the caller that awaited it.
 */
export function statementLog(tracer: Tracer, system: StatementSystem): (event: LogEvent) => void {
  return (event) => {
    const durationMs = event.queryDurationMillis;
    const span = tracer.startStatement(system, statementName(event.query.sql), durationMs);
    span?.end({ durationMs, error: event.level === 'error' ? errorType(event.error) : null });
  };
}

/** `run`'s statement as a span, when a tracer is given and a span is recorded where it is asked for. */
export function tracedStatement<T>(
  tracer: Tracer,
  system: StatementSystem,
  name: string,
  run: () => Promise<T>,
): Promise<T> {
  const span = tracer.startStatement(system, name);
  if (!span) return run();
  return run().then(
    (value) => {
      span.end();
      return value;
    },
    (err: unknown) => {
      span.end({ error: errorType(err) });
      throw err;
    },
  );
}
