import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * The `instance_settings` key that says deleted personal rows wait for a rewrite, and since when.
 * Shared by every instance on the database, so any worker in the window can carry it out.
 */
const OWED_KEY = 'privacy_compaction_owed_since';

/**
 * Notes that an erasure or purge left deleted rows behind. Insert-if-absent: cheap enough for the
 * transaction that deletes them, and an earlier mark keeps its time.
 */
export async function markCompactionOwed(db: Kysely<Database>, now: number): Promise<void> {
  await db
    .insertInto('instance_settings')
    .values({ key: OWED_KEY, value: String(now) })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}

/** Since when a rewrite is owed, without clearing the mark; null when none is. */
export async function findCompactionOwed(db: Kysely<Database>): Promise<number | null> {
  const row = await db
    .selectFrom('instance_settings')
    .select('value')
    .where('key', '=', OWED_KEY)
    .executeTakeFirst();
  return row ? Number(row.value) : null;
}

/**
 * Clears the mark and returns its time (null when none was set). A rewrite takes it as it starts,
 * so an erasure that completes meanwhile marks the tables again; two instances never both get it.
 */
export async function takeCompactionOwed(db: Kysely<Database>): Promise<number | null> {
  const row = await db
    .deleteFrom('instance_settings')
    .where('key', '=', OWED_KEY)
    .returning('value')
    .executeTakeFirst();
  return row ? Number(row.value) : null;
}

/** A rewrite as it starts; finishCompaction records its outcome. */
export async function insertCompaction(
  db: Kysely<Database>,
  c: { id: string; trigger: string; tables: readonly string[]; startedAt: number },
): Promise<void> {
  await db
    .insertInto('privacy_compactions')
    .values({
      id: c.id,
      trigger: c.trigger,
      tables: c.tables.join(','),
      started_at: c.startedAt,
    })
    .execute();
}

export async function finishCompaction(
  db: Kysely<Database>,
  id: string,
  outcome:
    | { finishedAt: number; bytesBefore: number; bytesAfter: number }
    | { finishedAt: number; error: string },
): Promise<void> {
  await db
    .updateTable('privacy_compactions')
    .set(
      'error' in outcome
        ? { finished_at: outcome.finishedAt, error: outcome.error }
        : {
            finished_at: outcome.finishedAt,
            bytes_before: outcome.bytesBefore,
            bytes_after: outcome.bytesAfter,
          },
    )
    .where('id', '=', id)
    .execute();
}

/** Forgets a rewrite that never began (another instance held the lock). */
export async function deleteCompaction(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('privacy_compactions').where('id', '=', id).execute();
}

/** When the most recent rewrite started, by any trigger; null if there never was one. */
export async function findLastCompactionStart(db: Kysely<Database>): Promise<number | null> {
  const row = await db
    .selectFrom('privacy_compactions')
    .select('started_at')
    // A failed run does not count: the next housekeeping in the window tries again.
    .where('error', 'is', null)
    .orderBy('started_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? row.started_at : null;
}
