import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Environment } from '../../domain/environment.js';
import type { Database, ResponseAuthorsTable } from '../schema.js';

export type ResponseAuthor = Selectable<ResponseAuthorsTable>;

/**
 * The author row of (application, name), created on first use. Insert-or-ignore followed by a read
 * is safe under concurrency on both databases: the unique (application_id, name) key decides.
 */
export async function findOrCreateResponseAuthor(
  db: Kysely<Database>,
  input: { environment: Environment; applicationId: string; name: string; now: number },
): Promise<ResponseAuthor> {
  await db
    .insertInto('response_authors')
    .values({
      id: randomUUID(),
      environment: input.environment,
      application_id: input.applicationId,
      name: input.name,
      created_at: input.now,
    })
    .onConflict((oc) => oc.columns(['application_id', 'name']).doNothing())
    .execute();
  return db
    .selectFrom('response_authors')
    .selectAll()
    .where('application_id', '=', input.applicationId)
    .where('name', '=', input.name)
    .executeTakeFirstOrThrow();
}
