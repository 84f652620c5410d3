import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import { directReadsOf } from './read-batching-sqlite-driver.js';
import type { Database } from './schema.js';

/**
 * Scalar parameters of a prepared query, by name. Inside `build` each one is a placeholder, not
 * the value: it may be passed where Kysely takes a value (`where(col, '=', p.id)`, `values`,
 * `set`) but not inspected, branched on, or given to `in` as a list.
 */
export type PreparedParams = Record<string, string | number | null>;

/**
 * A list bound as one parameter, on PostgreSQL only: an array the query unnests, as a batched read
 * does with its keys (batched-read.ts). Like a scalar it is a placeholder inside `build`.
 */
export type PreparedArrayParams = Record<string, string | number | null | readonly string[]>;

export interface PreparedQuery<P extends PreparedArrayParams, Row> {
  /** Every row; `db` is the store's handle or a transaction, like any repository function. */
  execute(db: Kysely<Database>, params: P): Promise<Row[]>;
  executeTakeFirst(db: Kysely<Database>, params: P): Promise<Row | undefined>;
  /** The raw result, for writes (numAffectedRows). */
  executeRaw(db: Kysely<Database>, params: P): Promise<QueryResult<Row>>;
}

interface Compiled {
  readonly compiled: CompiledQuery;
  /** For each compiled parameter, the name it takes its value from, or null for a constant. */
  readonly names: readonly (string | null)[];
}

/**
 * Stands for a parameter while the query is built: text no constant of a query holds, between the
 * NULs that steps/refuse-nul-characters.ts refuses.
 */
const MARKER_START = '\u0000prepared:';
const MARKER_END = '\u0000';
const marker = (name: string) => `${MARKER_START}${name}${MARKER_END}`;
const markedName = (p: unknown): string | null =>
  typeof p === 'string' && p.startsWith(MARKER_START) && p.endsWith(MARKER_END)
    ? p.slice(MARKER_START.length, -MARKER_END.length)
    : null;

/** Compiles a query built with markers for its values, and notes which value each parameter takes. */
function compileMarked(query: Compilable<unknown>): Compiled {
  const compiled = query.compile();
  return { compiled, names: compiled.parameters.map(markedName) };
}

/**
 * A query built and compiled by Kysely once per dialect, then executed with new parameter values
 * per call. Building and compiling a query in Kysely walks and freezes its operation tree, which
 * costs more CPU than running a simple indexed read on SQLite (docs/performance.md); hot reads are
 * worth building once. The SQL text stays the same, so SQLite reuses its prepared statement. On
 * PostgreSQL it is sent unnamed, parsed and planned with each call's values like any other query.
 */
export function preparedQuery<P extends PreparedArrayParams, Row>(
  build: (db: Kysely<Database>, params: P) => Compilable<Row>,
): PreparedQuery<P, Row> {
  // Keyed by the dialect's adapter, which a transaction shares with the handle that began it.
  const byAdapter = new WeakMap<object, Compiled>();
  const placeholders = new Proxy({} as P, {
    get: (_target, name) => (typeof name === 'string' ? marker(name) : undefined),
  });

  const compiledFor = (db: Kysely<Database>): Compiled => {
    const adapter = db.getExecutor().adapter;
    let entry = byAdapter.get(adapter);
    if (!entry) {
      entry = compileMarked(build(db, placeholders));
      byAdapter.set(adapter, entry);
    }
    return entry;
  };

  const executeRaw = (db: Kysely<Database>, params: P): Promise<QueryResult<Row>> => {
    const { compiled, names } = compiledFor(db);
    const parameters = names.map((name, i) => {
      if (name === null) return compiled.parameters[i];
      const value = params[name];
      if (value === undefined) throw new Error(`prepared query parameter ${name} is missing`);
      return value;
    });
    const direct = directReadsOf(db)?.readDirect(compiled.sql, parameters);
    if (direct) return direct as Promise<QueryResult<Row>>;
    return db.executeQuery<Row>({ ...compiled, parameters });
  };

  return {
    executeRaw,
    async execute(db, params) {
      return (await executeRaw(db, params)).rows;
    },
    async executeTakeFirst(db, params) {
      return (await executeRaw(db, params)).rows[0];
    },
  };
}

/** A value a prepared insert binds: what the tables' columns hold. */
type InsertValue = string | number | null;

export interface PreparedInsert<C extends string> {
  /** Inserts the rows in one statement; `db` is the store's handle or a transaction. */
  execute(db: Kysely<Database>, rows: readonly Readonly<Record<C, InsertValue>>[]): Promise<void>;
}

interface CompiledInsert {
  readonly compiled: CompiledQuery;
  /** For each compiled parameter, the row and column it takes its value from, or null for a constant. */
  readonly slots: readonly ({ readonly row: number; readonly column: string } | null)[];
}

/**
 * An insert of rows into one table, built and compiled by Kysely once per dialect and row count,
 * then run with each call's values: acceptance writes a few rows into several tables per request,
 * and building those inserts cost more CPU than SQLite took to run them
 * (bench/results/history.md, Privacy). Counts above `maxRows` are rare and built per call, so few shapes are kept.
 */
export function preparedInsert<T extends keyof Database & string, C extends keyof Database[T] & string>(
  table: T,
  columns: readonly C[],
  maxRows: number,
): PreparedInsert<C> {
  const byAdapter = new WeakMap<object, Map<number, CompiledInsert>>();

  const compiledFor = (db: Kysely<Database>, count: number): CompiledInsert => {
    const adapter = db.getExecutor().adapter;
    let shapes = byAdapter.get(adapter);
    if (!shapes) {
      shapes = new Map();
      byAdapter.set(adapter, shapes);
    }
    let entry = shapes.get(count);
    if (!entry) {
      const rows = Array.from({ length: count }, (_, row) =>
        Object.fromEntries(columns.map((column) => [column, marker(`${row}:${column}`)])),
      );
      // The table is chosen by the caller, so its row type is not known here; every column is named.
      const { compiled, names } = compileMarked(db.insertInto(table).values(rows as never));
      const slots = names.map((name) => {
        if (name === null) return null;
        const at = name.indexOf(':');
        return { row: Number(name.slice(0, at)), column: name.slice(at + 1) };
      });
      entry = { compiled, slots };
      shapes.set(count, entry);
    }
    return entry;
  };

  return {
    async execute(db, rows) {
      if (rows.length === 0) return;
      if (rows.length > maxRows) {
        await db
          .insertInto(table)
          .values(rows as never)
          .execute();
        return;
      }
      const { compiled, slots } = compiledFor(db, rows.length);
      const parameters = slots.map((slot, i) => {
        if (slot === null) return compiled.parameters[i];
        const value = (rows[slot.row] as Record<string, InsertValue>)[slot.column];
        if (value === undefined) throw new Error(`prepared insert value ${slot.column} is missing`);
        return value;
      });
      await db.executeQuery({ ...compiled, parameters });
    },
  };
}
