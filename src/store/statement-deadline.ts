import { type Kysely, sql } from 'kysely';
import pg from 'pg';

/**
 * Deadlines of PostgreSQL statements (docs/operations.md, Failure modes). The server cancels a
 * statement that runs past `statement_timeout` (57014), and the connection stays usable. A server
 * that does not answer at all (stopped, a hung network) cancels nothing, so the client gives up on
 * its own a little later (pg's `query_timeout`) and closes the connection: a late answer on it
 * would otherwise be read by whichever statement used it next.
 */

/** How much longer than the server's deadline the client waits, so a live server answers first. */
export const CLIENT_MARGIN_MS = 500;
/** The longest a timer can wait (2^31 - 1 ms); a deadline of 0 (none) waits that long. */
const NO_DEADLINE_MS = 2_147_483_647;
/** What pg (lib/client.js) says when `query_timeout` passed. */
export const CLIENT_DEADLINE_MESSAGE = 'Query read timeout';

/** The client's deadline for a server deadline (0: none). */
function clientDeadlineMs(statementTimeoutMs: number): number {
  return statementTimeoutMs === 0 ? NO_DEADLINE_MS : statementTimeoutMs + CLIENT_MARGIN_MS;
}

/** pg.Pool / pg.Client options that give every statement of a connection both deadlines. */
export function deadlineOptions(statementTimeoutMs: number): {
  statement_timeout: number;
  query_timeout: number;
} {
  return { statement_timeout: statementTimeoutMs, query_timeout: clientDeadlineMs(statementTimeoutMs) };
}

/** The only forms `setStatementTimeout` writes; the client follows them with its own deadline. */
const SET_TIMEOUT = /^set (local |session )?statement_timeout = (\d+)$/;
const RESET_TIMEOUT = 'reset statement_timeout';

/**
 * Gives the statements that follow on `db`'s connection a deadline of their own, on the server
 * and in the client: `local` for the rest of the transaction `db` is, otherwise for the session
 * until `resetStatementTimeout`. 0 is none.
 */
export async function setStatementTimeout<DB>(
  db: Kysely<DB>,
  ms: number,
  scope: 'local' | 'session',
): Promise<void> {
  if (!Number.isSafeInteger(ms) || ms < 0) throw new Error('invalid statement timeout');
  await sql.raw(`set ${scope} statement_timeout = ${ms}`).execute(db);
}

/** Back to the connection's own deadline (the pool's). */
export async function resetStatementTimeout<DB>(db: Kysely<DB>): Promise<void> {
  await sql.raw(RESET_TIMEOUT).execute(db);
}

type Callback = (err: Error | null, result?: unknown) => void;

/**
 * A pg client that closes its connection when a statement misses the client's deadline (pg
 * leaves the statement in flight on an open connection), and that follows `setStatementTimeout`
 * with a client deadline to match.
 */
export class DeadlineClient extends pg.Client {
  /** The client deadline a `set statement_timeout` of this session chose; null: the pool's. */
  #sessionMs: number | null = null;
  /** The same for `set local`, until the transaction ends. */
  #localMs: number | null = null;

  constructor(config?: string | pg.ClientConfig) {
    super(config);
    // A client whose connection fails emits 'error' even while checked out of the pool, where the
    // pool's own listener is off: unheard, that would end the process. Whatever it was running
    // fails with the same error, the pool drops it when it comes back (no longer queryable), and
    // an idle one is reported by the pool's 'error' event.
    this.on('error', ignoreClientError);
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg's query() has a dozen overloads; this only adds a deadline.
  override query(config: any, values?: any, callback?: any): any {
    if (typeof config === 'string') this.#follow(config);
    const deadline = this.#localMs ?? this.#sessionMs;
    let query = config;
    if (deadline !== null && (typeof config === 'string' || isPlainObject(config)))
      query = { ...(typeof config === 'string' ? { text: config } : config), query_timeout: deadline };
    if (typeof callback === 'function' || typeof values === 'function') {
      const cb = (typeof callback === 'function' ? callback : values) as Callback;
      const done: Callback = (err, result) => {
        this.#settled(err);
        cb(err, result);
      };
      return typeof callback === 'function' ? super.query(query, values, done) : super.query(query, done);
    }
    const result = super.query(query, values);
    if (!result || typeof result.then !== 'function') return result;
    return (result as Promise<unknown>).then(
      (value) => {
        this.#settled(null);
        return value;
      },
      (err: unknown) => {
        this.#settled(err);
        throw err;
      },
    );
  }

  #follow(text: string): void {
    const set = SET_TIMEOUT.exec(text.trim().toLowerCase());
    if (set) {
      const ms = clientDeadlineMs(Number(set[2]));
      if (set[1] === 'local ') this.#localMs = ms;
      else this.#sessionMs = ms;
    } else if (text.trim().toLowerCase() === RESET_TIMEOUT) {
      this.#sessionMs = null;
    }
  }

  #settled(err: unknown): void {
    if (err instanceof Error && err.message === CLIENT_DEADLINE_MESSAGE) {
      // Ending marks the client as closing at once (the pool's release then removes it instead of
      // handing it on); destroying the socket does not wait for a server that is not answering.
      void this.end().catch(() => {});
      this.connection.stream.destroy();
      return;
    }
    // `set local` lasts until the transaction ends (commit, rollback, or a failed `begin`).
    if (this.#localMs !== null && this.getTransactionStatus() === 'I') this.#localMs = null;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!value || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function ignoreClientError(): void {}
