import {
  type Expression,
  expressionBuilder,
  type Kysely,
  type QueryCreator,
  type Selectable,
  type SqlBool,
  type UpdateObject,
} from 'kysely';
import { dialectOf } from './dialect-of.js';
import type { Database } from './schema.js';

// Workers lease the rows they carry out (privacy requests, webhook deliveries): a leased row
// belongs to one worker until its lease runs out, so a worker that dies only delays it
// (docs/design.md, Privacy API; docs/webhooks.md, Delivery). Every leased table has the same lease
// columns, and the rules on them are written here once, for all of them.

/** The tables whose rows workers lease. */
export type LeasedTable = 'privacy_requests' | 'webhook_deliveries';

/** What the lease rules read and write: the columns every leased table has. */
interface LeaseColumns {
  id: string;
  status: string;
  lease_owner: string | null;
  lease_expires_at: number | null;
}

type LeaseView = { [T in LeasedTable]: LeaseColumns };

/** A row's lease handed back: by a worker that stops, or with the row's last change. */
export const NO_LEASE = { lease_owner: null, lease_expires_at: null } as const;

export interface LeaseClaim {
  readonly owner: string;
  readonly now: number;
  readonly leaseUntil: number;
  readonly limit: number;
}

/** One leased table: what its rows to do look like, and in which order they are taken. */
export interface LeasedRows<T extends LeasedTable> {
  readonly table: T;
  /** The status of rows still to be carried out. */
  readonly pending: Database[T]['status'];
  /** Claims take the rows lowest in this first. */
  readonly order: Expression<number>;
  /** Which pending rows a claim may take at `now`, besides a free lease; every one when absent. */
  readonly due?: (now: number) => Expression<SqlBool>;
  /** What a claim writes besides the lease. */
  readonly onClaim?: (now: number) => UpdateObject<Database, T>;
}

export interface WorkerLeases<T extends LeasedTable> {
  /**
   * Reserves up to `limit` due rows whose lease is free or expired for one worker, in one
   * statement. PostgreSQL: FOR UPDATE SKIP LOCKED lets concurrent workers pass each other instead
   * of queueing on the same rows. SQLite: the statement runs inside BEGIN IMMEDIATE, so it is
   * alone. Either way the UPDATE takes only rows still pending with a free lease, so a row another
   * worker took after this statement chose it stays with that worker.
   */
  claim(db: Kysely<Database>, claim: LeaseClaim): Promise<Selectable<Database[T]>[]>;
  /**
   * Fencing for several rows at once: extends the leases `owner` still holds, and locks those
   * rows (PostgreSQL) for the rest of the transaction. A row missing from the result went to
   * another worker, or is no longer pending.
   */
  renew(
    db: Kysely<Database>,
    lease: { ids: readonly string[]; owner: string; leaseUntil: number },
  ): Promise<Selectable<Database[T]>[]>;
  /** Hands rows `owner` still holds back to any worker at once. */
  release(db: Kysely<Database>, lease: { ids: readonly string[]; owner: string }): Promise<void>;
  /** The fence of any other write a lease holder makes: the row is pending and `owner`'s still. */
  heldBy(owner: string): Expression<SqlBool>;
}

/** The lease rules of one table. */
export function workerLeases<T extends LeasedTable>(rows: LeasedRows<T>): WorkerLeases<T> {
  const table: LeasedTable = rows.table;
  const eb = expressionBuilder<LeaseView, LeasedTable>();
  const free = (now: number) =>
    eb.and([
      eb('status', '=', rows.pending),
      eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<=', now)]),
    ]);
  const heldBy = (owner: string) => eb.and([eb('lease_owner', '=', owner), eb('status', '=', rows.pending)]);
  // The helper sees only the lease columns; a table's own columns come typed from its LeasedRows.
  const leased = (db: Kysely<Database>) => db as unknown as Kysely<LeaseView>;
  const typed = (found: Selectable<LeaseColumns>[]) => found as unknown as Selectable<Database[T]>[];
  return {
    async claim(db, claim) {
      const offered = (q: QueryCreator<LeaseView>) => {
        const due = q.selectFrom(table).select('id').where(free(claim.now));
        return (rows.due ? due.where(rows.due(claim.now)) : due).orderBy(rows.order).limit(claim.limit);
      };
      // PostgreSQL: a materialized CTE picks and locks the rows once. As `id in (subquery)` the
      // planner may rescan the subquery, and each rescan skips the rows locked by the one before,
      // so more than `limit` rows would be claimed.
      const postgres = dialectOf(db) === 'postgres';
      const found = await leased(db)
        .with(
          (cte) => cte('next').materialized(),
          (q) => (postgres ? offered(q).forUpdate().skipLocked() : offered(q)),
        )
        .updateTable(table)
        .set({
          lease_owner: claim.owner,
          lease_expires_at: claim.leaseUntil,
          // Typed by the table's own columns where LeasedRows.onClaim is written.
          ...(rows.onClaim?.(claim.now) as UpdateObject<LeaseView, LeasedTable>),
        })
        .where('id', 'in', (q) => q.selectFrom('next').select('next.id'))
        .where(free(claim.now))
        .returningAll()
        .execute();
      return typed(found);
    },
    async renew(db, lease) {
      if (lease.ids.length === 0) return [];
      const renewed = await leased(db)
        .updateTable(table)
        .set({ lease_expires_at: lease.leaseUntil })
        .where('id', 'in', lease.ids)
        .where(heldBy(lease.owner))
        .returningAll()
        .execute();
      return typed(renewed);
    },
    async release(db, lease) {
      if (lease.ids.length === 0) return;
      await leased(db)
        .updateTable(table)
        .set(NO_LEASE)
        .where('id', 'in', lease.ids)
        .where(heldBy(lease.owner))
        .execute();
    },
    heldBy,
  };
}
