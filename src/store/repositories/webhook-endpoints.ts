import type { Kysely } from 'kysely';
import type { Environment } from '../../domain/environment.js';
import type { PagePosition } from '../../domain/page-cursor.js';
import { insertChunked } from '../insert-chunked.js';
import { afterPosition } from '../keyset-page.js';
import type { Database, WebhookEndpointRow } from '../schema.js';

export interface NewWebhookEndpoint {
  readonly id: string;
  readonly applicationId: string;
  readonly url: string;
  readonly createdAt: number;
  readonly eventTypes: readonly string[];
  readonly secret: { readonly id: string; readonly value: string };
  /** The stack of the configuration file that names it, and its `rotate:` label. */
  readonly managedBy?: string | null;
  readonly rotateLabel?: string | null;
}

export async function insertWebhookEndpoint(
  db: Kysely<Database>,
  endpoint: NewWebhookEndpoint,
): Promise<void> {
  await insertWebhookEndpoints(db, [endpoint]);
}

/** Stores new endpoints with their subscriptions and first secrets, many a statement. */
export async function insertWebhookEndpoints(
  db: Kysely<Database>,
  endpoints: readonly NewWebhookEndpoint[],
): Promise<void> {
  await insertChunked(
    db,
    'webhook_endpoints',
    endpoints.map((e) => ({
      id: e.id,
      application_id: e.applicationId,
      url: e.url,
      created_at: e.createdAt,
      ...(e.managedBy === undefined ? {} : { managed_by: e.managedBy }),
      ...(e.rotateLabel === undefined ? {} : { rotate_label: e.rotateLabel }),
    })),
  );
  await insertChunked(
    db,
    'webhook_subscriptions',
    endpoints.flatMap((e) => e.eventTypes.map((t) => ({ endpoint_id: e.id, event_type: t }))),
  );
  await insertChunked(
    db,
    'webhook_secrets',
    endpoints.map((e) =>
      secretRow({ id: e.secret.id, endpointId: e.id, value: e.secret.value, createdAt: e.createdAt }),
    ),
  );
}

export interface WebhookEndpointListing extends WebhookEndpointRow {
  readonly eventTypes: string[];
  /** Secrets that sign now: two during a rotation's grace period. */
  readonly liveSecrets: number;
}

export interface WebhookEndpointFilter {
  readonly applicationId?: string;
  readonly id?: string;
  /** Only the endpoints of this environment's applications. */
  readonly environment?: Environment;
  /** A page: the endpoints after this position, at most `limit` of them. */
  readonly after?: PagePosition | null;
  readonly limit?: number;
  readonly now: number;
}

/** Endpoints oldest first, each with its subscriptions and how many secrets sign for it at `now`. */
export async function listWebhookEndpoints(
  db: Kysely<Database>,
  filter: WebhookEndpointFilter,
): Promise<WebhookEndpointListing[]> {
  let q = db.selectFrom('webhook_endpoints').selectAll();
  if (filter.applicationId !== undefined) q = q.where('application_id', '=', filter.applicationId);
  if (filter.id !== undefined) q = q.where('id', '=', filter.id);
  const { environment } = filter;
  if (environment !== undefined)
    q = q.where('application_id', 'in', (eb) =>
      eb.selectFrom('applications').select('id').where('environment', '=', environment),
    );
  if (filter.after) q = q.where(afterPosition('created_at', 'id', filter.after));
  q = q.orderBy('created_at').orderBy('id');
  const rows = await (filter.limit === undefined ? q : q.limit(filter.limit)).execute();
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const subscriptions = await db
    .selectFrom('webhook_subscriptions')
    .selectAll()
    .where('endpoint_id', 'in', ids)
    .orderBy('event_type')
    .execute();
  const events = new Map<string, string[]>();
  for (const s of subscriptions)
    events.set(s.endpoint_id, [...(events.get(s.endpoint_id) ?? []), s.event_type]);
  const secrets = await listLiveWebhookSecrets(db, ids, filter.now);
  return rows.map((r) => ({
    ...r,
    eventTypes: events.get(r.id) ?? [],
    liveSecrets: secrets.get(r.id)?.length ?? 0,
  }));
}

export async function hasWebhookEndpoints(db: Kysely<Database>, applicationId: string): Promise<boolean> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('application_id', '=', applicationId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Deletes an endpoint with its subscriptions, secrets and deliveries; false when there was none. */
export async function deleteWebhookEndpoint(db: Kysely<Database>, id: string): Promise<boolean> {
  const r = await db.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Stops (reason and time) or resumes (null) deliveries to an endpoint; false when there is none. */
export async function setWebhookEndpointDisabled(
  db: Kysely<Database>,
  id: string,
  disabled: { at: number; reason: string } | null,
): Promise<boolean> {
  const r = await db
    .updateTable('webhook_endpoints')
    .set({ disabled_at: disabled?.at ?? null, disabled_reason: disabled?.reason ?? null })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** A new signing secret of an endpoint: the one it signs with from now on. */
export interface NewWebhookSecret {
  readonly id: string;
  readonly endpointId: string;
  /** `whsec_...`: kept in the clear because an HMAC is computed with the key itself. */
  readonly value: string;
  readonly createdAt: number;
}

const secretRow = (s: NewWebhookSecret) => ({
  id: s.id,
  endpoint_id: s.endpointId,
  secret: s.value,
  created_at: s.createdAt,
  expires_at: null,
});

export async function insertWebhookSecret(db: Kysely<Database>, secret: NewWebhookSecret): Promise<void> {
  await db.insertInto('webhook_secrets').values(secretRow(secret)).execute();
}

/** Sets when an endpoint's other secrets stop signing (earlier dates stand). */
export async function expireWebhookSecrets(
  db: Kysely<Database>,
  endpointId: string,
  keep: { secretId: string; expiresAt: number },
): Promise<void> {
  await db
    .updateTable('webhook_secrets')
    .set({ expires_at: keep.expiresAt })
    .where('endpoint_id', '=', endpointId)
    .where('id', '!=', keep.secretId)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', keep.expiresAt)]))
    .execute();
}

/** Secret values that sign at `now`, per endpoint, newest first. */
export async function listLiveWebhookSecrets(
  db: Kysely<Database>,
  endpointIds: readonly string[],
  now: number,
): Promise<Map<string, string[]>> {
  if (endpointIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('webhook_secrets')
    .select(['endpoint_id', 'secret'])
    .where('endpoint_id', 'in', [...new Set(endpointIds)])
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const byEndpoint = new Map<string, string[]>();
  for (const r of rows) byEndpoint.set(r.endpoint_id, [...(byEndpoint.get(r.endpoint_id) ?? []), r.secret]);
  return byEndpoint;
}

/** Rotated-out secrets past their grace period sign nothing any more. */
export async function deleteExpiredWebhookSecrets(db: Kysely<Database>, now: number): Promise<number> {
  const r = await db.deleteFrom('webhook_secrets').where('expires_at', '<=', now).executeTakeFirst();
  return Number(r.numDeletedRows);
}
