import { type Kysely, sql } from 'kysely';
import { type Environment, isEnvironment } from '../../domain/environment.js';
import type { Database } from '../schema.js';

/** The environment's tenancy revision: 0 until its first change. */
export async function readTenancyRevision(db: Kysely<Database>, environment: Environment): Promise<number> {
  const row = await db
    .selectFrom('tenancy_revisions')
    .select('revision')
    .where('environment', '=', environment)
    .executeTakeFirst();
  return row ? Number(row.revision) : 0;
}

/**
 * Moves the revision on from `expected`, or answers false when it is no longer `expected`. The
 * row's lock (PostgreSQL) is held until the caller's transaction ends, so a concurrent change of
 * the same environment waits for it and then finds the revision moved.
 */
export async function claimTenancyRevision(
  db: Kysely<Database>,
  environment: Environment,
  expected: number,
): Promise<boolean> {
  if (expected === 0) {
    const r = await db
      .insertInto('tenancy_revisions')
      .values({ environment, revision: 1 })
      .onConflict((oc) => oc.column('environment').doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }
  const r = await db
    .updateTable('tenancy_revisions')
    .set({ revision: sql`revision + 1` })
    .where('environment', '=', environment)
    .where('revision', '=', expected)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** A changed object of the tenancy, as its audit entry names it. */
export interface TenancyTarget {
  readonly environment?: unknown;
  /** Its application: the application itself, or the one a passkey or endpoint belongs to. */
  readonly applicationId?: unknown;
}

/**
 * Moves on the revision of every environment `targets` changed, in the caller's transaction. An
 * entry that does not say its environment is found by its application (an endpoint removed is
 * no longer there to ask).
 */
export async function bumpTenancyRevisions(
  db: Kysely<Database>,
  targets: readonly TenancyTarget[],
): Promise<void> {
  if (targets.length === 0) return;
  const environments = new Set<Environment>();
  const applicationIds = new Set<string>();
  for (const t of targets) {
    if (typeof t.environment === 'string' && isEnvironment(t.environment)) environments.add(t.environment);
    else if (typeof t.applicationId === 'string') applicationIds.add(t.applicationId);
  }
  if (applicationIds.size > 0) {
    const rows = await db
      .selectFrom('applications')
      .select('environment')
      .distinct()
      .where('id', 'in', [...applicationIds])
      .execute();
    for (const r of rows) environments.add(r.environment);
  }
  for (const environment of [...environments].sort())
    await db
      .insertInto('tenancy_revisions')
      .values({ environment, revision: 1 })
      .onConflict((oc) =>
        oc.column('environment').doUpdateSet({ revision: sql`tenancy_revisions.revision + 1` }),
      )
      .execute();
}
