import { createHash } from 'node:crypto';
import type pg from 'pg';
import { PREPARED_SQL_TAG } from './prepared-query.js';
import { DeadlineClient } from './statement-deadline.js';

/**
 * SQLSTATEs of a named statement the server will not run as it was parsed (PostgreSQL, Appendix A):
 * 0A000 "cached plan must not change result type", once a table it reads changed the columns it
 * answers with; 26000 invalid_sql_statement_name, once the session lost it (DEALLOCATE).
 */
const STALE_CODES = new Set(['0A000', '26000']);
const INVALID_STATEMENT_NAME = '26000';
/**
 * Transaction status of ReadyForQuery: idle, outside a transaction block. pg rejects a statement
 * on its ErrorResponse, before the ReadyForQuery that follows, so the status read then may still be
 * the one from before the statement ('T' in a block) or already the next ('E', failed block): only
 * idle says that a retry runs outside one.
 */
const IDLE = 'I';

const statementNames = new Map<string, string>(); // as many as the code has prepared queries

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `rpa_${createHash('sha256').update(text).digest('base64url').slice(0, 22)}`;
    statementNames.set(text, name);
  }
  return name;
}

/** pg's record of the statements a connection parsed (lib/connection.js), which it binds by name. */
interface ParsedStatements {
  readonly parsedStatements: Record<string, string>;
}

/**
 * Runs the SQL of prepared queries (prepared-query.ts) as named statements: PostgreSQL parses and
 * plans each once per connection instead of on every call, and the hot reads share the two cores
 * of a small machine with it. Only those are named: a connection keeps every named statement
 * until it closes, and queries built per call (lists of varying length) would pile up.
 *
 * A migration may change a table while connections hold statements reading it. Prepared queries
 * name their columns, so an added column changes nothing; a statement the server refuses as stale
 * is forgotten and parsed again, once, on the same connection. Inside a transaction the refusal
 * has already failed the transaction, so the statement fails and the next use parses it again.
 */
export class PreparingClient extends DeadlineClient {
  /** Names this connection must DEALLOCATE before parsing them again: the server still holds them. */
  readonly #stale = new Set<string>();

  constructor(config?: string | pg.ClientConfig) {
    super(config);
    // A client whose connection fails emits 'error' even while checked out of the pool, where the
    // pool's own listener is off: unheard, that would end the process. Whatever it was running
    // fails with the same error, the pool drops it when it comes back (no longer queryable), and
    // an idle one is reported by the pool's 'error' event.
    this.on('error', ignoreClientError);
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg's query() has a dozen overloads; this only adds a name.
  override query(config: any, values?: any, callback?: any): any {
    if (typeof config === 'string' && config.startsWith(PREPARED_SQL_TAG) && callback === undefined) {
      return this.#named(config, values, true);
    }
    return super.query(config, values, callback);
  }

  async #named(text: string, values: unknown[] | undefined, mayRetry: boolean): Promise<pg.QueryResult> {
    const name = statementName(text);
    if (this.#stale.has(name)) {
      try {
        await super.query(`deallocate "${name}"`);
      } catch (err) {
        // Gone already (DEALLOCATE ALL): what was to be done is done.
        if ((err as { code?: unknown }).code !== INVALID_STATEMENT_NAME) throw err;
      }
      this.#stale.delete(name);
    }
    try {
      return await super.query({ name, text, values });
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (typeof code !== 'string' || !STALE_CODES.has(code)) throw err;
      delete (this as unknown as { connection: ParsedStatements }).connection.parsedStatements[name];
      if (code === '0A000') this.#stale.add(name);
      if (!mayRetry || this.getTransactionStatus() !== IDLE) throw err;
      return this.#named(text, values, false);
    }
  }
}

export function ignoreClientError(): void {}
