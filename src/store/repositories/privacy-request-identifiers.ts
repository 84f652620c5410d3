import type { Kysely } from 'kysely';
import { dialectOf } from '../dialect-of.js';
import type { Database } from '../schema.js';

/**
 * What other requests hold of these requests' subjects: each (request, client) where another
 * request named one of a subject's keys (named or linked identifiers) and covered that key's
 * client, in the same environment, whichever application filed it; `subjectRequestId` says whose.
 * Read while the keys still exist, that is before the requests complete.
 */
export async function findRequestsNamingSubjects(
  db: Kysely<Database>,
  requestIds: readonly string[],
): Promise<{ subjectRequestId: string; requestId: string; clientId: string }[]> {
  if (requestIds.length === 0) return [];
  const rows = await requestsNamingSubjectsQuery(db, requestIds).execute();
  return rows.map((r) => ({
    subjectRequestId: r.subject_request_id,
    requestId: r.request_id,
    clientId: r.client_id,
  }));
}

/**
 * The query of findRequestsNamingSubjects, for its plan to be examined. Driven by the subject
 * keys, each an exact look-up in the request identifier index. On PostgreSQL that look-up is a
 * fenced LATERAL subquery, as in findSubjectReviewsOfRequests (privacy-subjects.ts): the pending
 * keys' statistics lag behind a busy queue, and the plain join was planned as a sequential scan of
 * every request's identifiers, a table that keeps growing.
 */
export function requestsNamingSubjectsQuery(db: Kysely<Database>, requestIds: readonly string[]) {
  const keys = db.selectFrom('privacy_pending_keys as k').where('k.request_id', 'in', requestIds);
  if (dialectOf(db) === 'postgres') {
    return keys
      .innerJoinLateral(
        (eb) =>
          eb
            .selectFrom('privacy_request_identifiers as i')
            .innerJoin('privacy_request_clients as c', (join) =>
              join.onRef('c.request_id', '=', 'i.request_id').onRef('c.client_id', '=', 'k.client_id'),
            )
            .select(['i.request_id', 'c.client_id'])
            .whereRef('i.environment', '=', 'k.environment')
            .whereRef('i.kind', '=', 'k.kind')
            .whereRef('i.value_hash', '=', 'k.value_hash')
            .whereRef('i.request_id', '<>', 'k.request_id')
            // A fence: without it PostgreSQL pulls the subquery up into a plain join.
            .offset(0)
            .as('m'),
        (join) => join.onTrue(),
      )
      .select(['k.request_id as subject_request_id', 'm.request_id', 'm.client_id'])
      .distinct();
  }
  return keys
    .innerJoin('privacy_request_identifiers as i', (join) =>
      join
        .onRef('i.environment', '=', 'k.environment')
        .onRef('i.kind', '=', 'k.kind')
        .onRef('i.value_hash', '=', 'k.value_hash'),
    )
    .innerJoin('privacy_request_clients as c', (join) =>
      join.onRef('c.request_id', '=', 'i.request_id').onRef('c.client_id', '=', 'k.client_id'),
    )
    .select(['k.request_id as subject_request_id', 'i.request_id', 'c.client_id'])
    .distinct()
    .whereRef('i.request_id', '<>', 'k.request_id');
}

/** After erasure even the masked display values go: only kinds and keyed hashes remain. */
export async function dropMaskedValues(db: Kysely<Database>, requestIds: readonly string[]): Promise<void> {
  if (requestIds.length === 0) return;
  await db
    .updateTable('privacy_request_identifiers')
    .set({ masked_value: null })
    .where('request_id', 'in', requestIds)
    .execute();
}
