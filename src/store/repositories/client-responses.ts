import { type Expression, type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { ClientResponse, ResponseAuthorship } from '../../domain/client-response.js';
import type { Environment } from '../../domain/environment.js';
import type { PagePosition } from '../../domain/page-cursor.js';
import { batchedRead } from '../batched-read.js';
import { chunks } from '../chunks.js';
import { dialectOf } from '../dialect-of.js';
import { afterPosition } from '../keyset-page.js';
import { preparedQuery } from '../prepared-query.js';
import { CLIENT_RESPONSE_COLUMNS } from '../rows/content-rows.js';
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

/** Responses with the name of the client instance that gives them, ready for toClientResponse. */
export function selectResponses(db: Kysely<Database>) {
  return db
    .selectFrom('client_responses')
    .innerJoin('clients', 'clients.id', 'client_responses.client_id')
    .select(CLIENT_RESPONSE_COLUMNS.map((c) => `client_responses.${c}` as const))
    .select('clients.name as client_name');
}

/** A value, or a column of the keys a batched read joins to (PostgreSQL). */
type Operand<T> = T | Expression<T>;

/**
 * The grant rule: the responses of the client instances an application is granted, each joined to
 * its grant. The grant is joined on its primary key (application, client), so a response meets at
 * most one, rather than tested with `in (select ...)`, which SQLite would run as a list subquery
 * with a Bloom filter on every call.
 */
function grantedResponses(db: Kysely<Database>, applicationId: Operand<string>) {
  return db
    .selectFrom('client_responses')
    .innerJoin('application_grants', (join) =>
      join
        .onRef('application_grants.client_id', '=', 'client_responses.client_id')
        .on('application_grants.application_id', '=', applicationId),
    );
}

/** One response asked for by an application in one environment. */
type ResponseKey = { id: string; environment: Environment; applicationId: string };

/** One response by id in one environment under the grant rule. */
function grantedResponse(db: Kysely<Database>, key: { [F in keyof ResponseKey]: Operand<ResponseKey[F]> }) {
  return grantedResponses(db, key.applicationId)
    .where('client_responses.id', '=', key.id)
    .where('client_responses.environment', '=', key.environment);
}

type GrantedResponseQuery = ReturnType<typeof grantedResponse>;

/** The keys of a batched read (PostgreSQL), as parallel arrays. */
type ResponseKeys = {
  ids: readonly string[];
  environments: readonly string[];
  applicationIds: readonly string[];
};

/** The keys of a batched read as a table, numbered from 1 by `with ordinality`. */
const responseKeys = (p: ResponseKeys) =>
  sql<{
    id: string;
    environment: Environment;
    application_id: string;
    ord: number;
  }>`unnest(${p.ids}::text[], ${p.environments}::text[], ${p.applicationIds}::text[]) with ordinality`.as<'k'>(
    sql`k(id, environment, application_id, ord)`,
  );

/**
 * A read of one response under the grant rule, selecting what `select` adds to grantedResponse.
 * On SQLite a prepared query, whose reads of a turn already share one transaction
 * (read-batching-sqlite-driver.ts) and cost a few microseconds each. On PostgreSQL a batched read
 * (batched-read.ts): the same query joined laterally to the keys, one SQL text for any number of
 * keys.
 *
 * The subquery is fenced (`offset 0`) so PostgreSQL plans it as it is written, once per key. Pulled
 * up into a plain join, a plan made while the table was small (its first minutes, or before
 * ANALYZE ever ran) hashed the keys and scanned every response on every call, and a connection that
 * kept that plan kept doing so as the table grew: at 91,000 responses the author read served 1,000
 * calls/s against 15,800 at 500 (bench/results/history.md, GET author). Fenced, the only choice
 * left per key is the index or a scan, and the index costs less than a scan of any table not yet
 * analyzed.
 */
function grantedResponseRead<Row, R>(
  select: (query: GrantedResponseQuery) => SelectQueryBuilder<Database, never, Row>,
  columns: readonly (keyof Row & string)[],
  toResult: (row: Row) => R,
) {
  const one = preparedQuery((db, p: ResponseKey) => select(grantedResponse(db, p)));
  const many = preparedQuery((db, p: ResponseKeys) =>
    db
      .selectFrom(responseKeys(p))
      .crossJoinLateral(
        select(
          grantedResponse(db, {
            id: sql.ref('k.id'),
            environment: sql.ref('k.environment'),
            applicationId: sql.ref('k.application_id'),
          }),
        )
          .offset(sql.lit(0))
          .as('r'),
      )
      .select('k.ord')
      // Each of the subquery's columns by name, as `select` names them: never `r.*`.
      .select(columns.map((c) => sql.ref<unknown>(`r.${c}`).as(c))),
  );
  const batched = batchedRead<ResponseKey, R>(async (db, keys) => {
    const rows = await many.execute(db, {
      ids: keys.map((k) => k.id),
      environments: keys.map((k) => k.environment),
      applicationIds: keys.map((k) => k.applicationId),
    });
    const found: (R | undefined)[] = new Array(keys.length);
    // Each row is the subquery's Row with its key's number: Kysely's mapped type of it is not Row.
    for (const row of rows) found[row.ord - 1] = toResult(row as Row);
    return found;
  });
  return async (db: Kysely<Database>, scope: ResponseScope, id: string): Promise<R | undefined> => {
    const key = { id, environment: scope.environment, applicationId: scope.applicationId };
    if (dialectOf(db) === 'postgres') return batched(db, key);
    const row = await one.executeTakeFirst(db, key);
    return row && toResult(row);
  };
}

/**
 * One response, only if it belongs to a client instance the application is granted: a response of
 * any other client is reported exactly like one that does not exist.
 */
export const findAccessibleResponse = grantedResponseRead(
  (query) =>
    query
      .innerJoin('clients', 'clients.id', 'client_responses.client_id')
      .select(CLIENT_RESPONSE_COLUMNS.map((c) => `client_responses.${c}` as const))
      .select('clients.name as client_name'),
  [...CLIENT_RESPONSE_COLUMNS, 'client_name'],
  toClientResponse,
);

/**
 * Who wrote one response, only if it belongs to a client instance the application is granted
 * (as findAccessibleResponse). The author endpoints are the Response API's hottest reads and need
 * nothing else: two columns of one table, without the client's name or the text.
 */
export const findAccessibleResponseAuthor = grantedResponseRead(
  (query) => query.select(['client_responses.id', 'client_responses.author_id']),
  ['id', 'author_id'],
  (row): ResponseAuthorship => ({ id: row.id, authorId: row.author_id }),
);

/**
 * Up to `limit` responses to one review after `after`, oldest first (domain/page-cursor.ts): read
 * in the order of the index on (review, creation time, id), so a page costs its own rows however
 * many responses the review has.
 */
export async function pageResponsesOfReview(
  db: Kysely<Database>,
  review: { environment: Environment; reviewId: string },
  after: PagePosition | null,
  limit: number,
): Promise<ClientResponse[]> {
  let q = selectResponses(db)
    .where('client_responses.environment', '=', review.environment)
    .where('client_responses.review_id', '=', review.reviewId);
  if (after) q = q.where(afterPosition('client_responses.created_at', 'client_responses.id', after));
  const rows = await q
    .orderBy('client_responses.created_at')
    .orderBy('client_responses.id')
    .limit(limit)
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
  const granted = grantedResponse(db, { id, ...scope }).select('client_responses.id');
  const r = await db.deleteFrom('client_responses').where('id', 'in', granted).executeTakeFirst();
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
    const rows = await grantedResponses(db, scope.applicationId)
      .select(['client_responses.review_id', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('client_responses.environment', '=', scope.environment)
      .where('client_responses.review_id', 'in', chunk)
      .groupBy('client_responses.review_id')
      .execute();
    for (const row of rows) counts.set(row.review_id, Number(row.n));
  }
  return counts;
}
