import { CompiledQuery, type Kysely } from 'kysely';
import type { ClientResponse, ResponseAuthorship } from '../../domain/client-response.js';
import type { Environment } from '../../domain/environment.js';
import { batchedRead } from '../batched-read.js';
import { chunks } from '../chunks.js';
import type { Dialect } from '../database.js';
import { PREPARED_SQL_TAG, type PreparedQuery, preparedQuery } from '../prepared-query.js';
import type { ClientResponseRow, Database } from '../schema.js';

export function toClientResponse(row: ClientResponseRow & { client_name: string }): ClientResponse {
  return {
    id: row.id,
    environment: row.environment,
    reviewId: row.review_id,
    clientId: row.client_id,
    clientName: row.client_name,
    applicationId: row.application_id,
    authorId: row.author_id,
    department: row.department,
    response: row.response,
    responseHash: row.response_hash,
    responseBy: row.response_by,
    responseSource: row.response_source,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Who is asking: an application acting in one environment. */
export interface ResponseScope {
  readonly environment: Environment;
  readonly applicationId: string;
}

export async function insertClientResponse(db: Kysely<Database>, response: ClientResponse): Promise<void> {
  await db
    .insertInto('client_responses')
    .values({
      id: response.id,
      environment: response.environment,
      review_id: response.reviewId,
      client_id: response.clientId,
      application_id: response.applicationId,
      author_id: response.authorId,
      department: response.department,
      response: response.response,
      response_hash: response.responseHash,
      response_by: response.responseBy,
      response_source: response.responseSource,
      created_at: response.createdAt,
      updated_at: response.updatedAt,
    })
    .execute();
}

function grantedClientIds(db: Kysely<Database>, applicationId: string) {
  return db
    .selectFrom('application_grants')
    .select('application_grants.client_id')
    .where('application_grants.application_id', '=', applicationId);
}

/** Responses with the name of the client instance that gives them, ready for toClientResponse. */
export function selectResponses(db: Kysely<Database>) {
  return db
    .selectFrom('client_responses')
    .innerJoin('clients', 'clients.id', 'client_responses.client_id')
    .selectAll('client_responses')
    .select('clients.name as client_name');
}

/**
 * One response by id in one environment, joined to the application's grant of its client: the
 * access rule of findAccessibleResponse and findAccessibleResponseAuthor for one key
 * (batchedGrantedResponses states the same rule for many keys, on PostgreSQL). The grant
 * is joined on its primary key (application, client) rather than tested with `in (select ...)`,
 * which SQLite would run as a list subquery with a Bloom filter on every call.
 */
function grantedResponse(
  db: Kysely<Database>,
  p: { id: string; environment: Environment; applicationId: string },
) {
  return db
    .selectFrom('client_responses')
    .innerJoin('application_grants', (join) =>
      join
        .onRef('application_grants.client_id', '=', 'client_responses.client_id')
        .on('application_grants.application_id', '=', p.applicationId),
    )
    .where('client_responses.id', '=', p.id)
    .where('client_responses.environment', '=', p.environment);
}

/** One response asked for by an application in one environment. */
type ResponseKey = { id: string; environment: Environment; applicationId: string };

/** Read by every Response API call on one response, so compiled once (prepared-query.ts). */
const accessibleResponse = preparedQuery((db, p: ResponseKey) =>
  grantedResponse(db, p)
    .innerJoin('clients', 'clients.id', 'client_responses.client_id')
    .selectAll('client_responses')
    .select('clients.name as client_name'),
);

/**
 * The access rule of grantedResponse for many keys in one statement, on PostgreSQL, as a batched
 * read (batched-read.ts): the keys as parallel arrays, numbered by `with ordinality`, and each
 * row handed back to the key of its number. One SQL text for any number of keys, so the
 * connection keeps it as one named statement, whose generic plan (from its sixth run) probes the
 * response's primary key and then the grant's for each key; the first custom plans may scan the
 * grants instead.
 */
function batchedGrantedResponses<Row, R>(select: string, toResult: (row: Row) => R, join = '') {
  const text = `${PREPARED_SQL_TAG}select k.ord, ${select}
from unnest($1::text[], $2::text[], $3::text[]) with ordinality as k(id, environment, application_id, ord)
join client_responses r on r.id = k.id and r.environment = k.environment
join application_grants g on g.client_id = r.client_id and g.application_id = k.application_id${join}`;
  return batchedRead<ResponseKey, R>(async (db, keys) => {
    const { rows } = await db.executeQuery<Row & { ord: number }>(
      CompiledQuery.raw(text, [
        keys.map((k) => k.id),
        keys.map((k) => k.environment),
        keys.map((k) => k.applicationId),
      ]),
    );
    const found: (R | undefined)[] = new Array(keys.length);
    for (const row of rows) found[row.ord - 1] = toResult(row);
    return found;
  });
}

/**
 * A read of one response under the grant rule: the prepared query `one` on SQLite, whose reads of
 * a turn already share one transaction (read-batching-sqlite-dialect.ts) and cost a few
 * microseconds each; on PostgreSQL the batched form, selecting `select` (with `join`). Rows of
 * either become results through `toResult`.
 */
function grantedResponseRead<Row, R>(
  one: PreparedQuery<ResponseKey, Row>,
  toResult: (row: Row) => R,
  many: { readonly select: string; readonly join?: string },
) {
  const batched = batchedGrantedResponses(many.select, toResult, many.join);
  return async (
    db: Kysely<Database>,
    dialect: Dialect,
    scope: ResponseScope,
    id: string,
  ): Promise<R | undefined> => {
    const key = { id, environment: scope.environment, applicationId: scope.applicationId };
    if (dialect === 'postgres') return batched(db, key);
    const row = await one.executeTakeFirst(db, key);
    return row && toResult(row);
  };
}

/**
 * One response, only if it belongs to a client instance the application is granted: a response of
 * any other client is reported exactly like one that does not exist.
 */
export const findAccessibleResponse = grantedResponseRead(accessibleResponse, toClientResponse, {
  select: 'r.*, c.name as client_name',
  join: '\njoin clients c on c.id = r.client_id',
});

const accessibleResponseAuthor = preparedQuery((db, p: ResponseKey) =>
  grantedResponse(db, p).select(['client_responses.id', 'client_responses.author_id']),
);

/**
 * Who wrote one response, only if it belongs to a client instance the application is granted
 * (as findAccessibleResponse). The author endpoints are the Response API's hottest reads and need
 * nothing else: two columns of one table, without the client's name or the text.
 */
export const findAccessibleResponseAuthor = grantedResponseRead(
  accessibleResponseAuthor,
  (row: { id: string; author_id: string }): ResponseAuthorship => ({ id: row.id, authorId: row.author_id }),
  { select: 'r.id, r.author_id' },
);

export async function listResponsesOfReview(
  db: Kysely<Database>,
  environment: Environment,
  reviewId: string,
): Promise<ClientResponse[]> {
  const rows = await selectResponses(db)
    .where('client_responses.environment', '=', environment)
    .where('client_responses.review_id', '=', reviewId)
    .orderBy('client_responses.created_at')
    .orderBy('client_responses.id')
    .execute();
  return rows.map(toClientResponse);
}

/** Writes the changeable attributes of a response as they are in `response`. */
export async function updateClientResponse(db: Kysely<Database>, response: ClientResponse): Promise<void> {
  await db
    .updateTable('client_responses')
    .set({
      department: response.department,
      response: response.response,
      response_hash: response.responseHash,
      response_by: response.responseBy,
      author_id: response.authorId,
      updated_at: response.updatedAt,
    })
    .where('id', '=', response.id)
    .execute();
}

/** Deletes a response of a granted client; returns how many rows went (0 or 1). */
export async function deleteAccessibleResponse(
  db: Kysely<Database>,
  scope: ResponseScope,
  id: string,
): Promise<number> {
  const r = await db
    .deleteFrom('client_responses')
    .where('id', '=', id)
    .where('environment', '=', scope.environment)
    .where('client_id', 'in', grantedClientIds(db, scope.applicationId))
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Number of responses per review, for reviews of granted clients; reviews without any are absent. */
export async function countResponsesOfReviews(
  db: Kysely<Database>,
  scope: ResponseScope,
  reviewIds: readonly string[],
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const chunk of chunks(reviewIds, 1000)) {
    const rows = await db
      .selectFrom('client_responses')
      .select(['review_id', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('environment', '=', scope.environment)
      .where('review_id', 'in', chunk)
      .where('client_id', 'in', grantedClientIds(db, scope.applicationId))
      .groupBy('review_id')
      .execute();
    for (const row of rows) counts.set(row.review_id, Number(row.n));
  }
  return counts;
}
