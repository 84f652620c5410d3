import { expressionBuilder, type Kysely, sql } from 'kysely';
import type { Environment } from '../../domain/environment.js';
import type { PagePosition } from '../../domain/page-cursor.js';
import type { WebhookDeliveryStatus } from '../../domain/webhook-delivery-status.js';
import { afterPosition } from '../keyset-page.js';
import type { Database, WebhookDeliveryRow } from '../schema.js';
import { NO_LEASE, workerLeases } from '../worker-leases.js';

const delivery = expressionBuilder<Database, 'webhook_deliveries'>();

const deliveryLeases = workerLeases({
  table: 'webhook_deliveries',
  pending: 'pending',
  order: delivery.ref('next_attempt_at'),
  due: (now) =>
    delivery.and([
      delivery('next_attempt_at', '<=', now),
      // A disabled endpoint's deliveries wait until it is enabled again (docs/webhooks.md).
      delivery.exists(
        delivery
          .selectFrom('webhook_endpoints as e')
          .select(sql.lit(1).as('one'))
          .whereRef('e.id', '=', 'webhook_deliveries.endpoint_id')
          .where('e.disabled_at', 'is', null),
      ),
    ]),
});

/**
 * Leases up to `limit` due deliveries to enabled endpoints, oldest due first, in one statement,
 * with the same rules as privacy requests (worker-leases.ts).
 */
export const claimDueDeliveries = deliveryLeases.claim;

export interface DeliveryWork {
  readonly id: string;
  readonly messageId: string;
  readonly endpointId: string;
  readonly url: string;
  readonly payload: string;
  readonly attempts: number;
}

/** What sending needs: the endpoint's URL and the event's body, for deliveries just claimed. */
export async function findDeliveryWork(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<DeliveryWork[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .innerJoin('webhook_messages as m', 'm.id', 'd.message_id')
    .select([
      'd.id',
      'd.message_id as messageId',
      'd.endpoint_id as endpointId',
      'e.url',
      'm.payload',
      'd.attempts',
    ])
    .where('d.id', 'in', ids)
    .execute();
}

export interface AttemptRecord {
  readonly id: string;
  readonly owner: string;
  readonly at: number;
  readonly status: WebhookDeliveryStatus;
  readonly attempts: number;
  /** When to try again (status pending); ignored otherwise. */
  readonly nextAttemptAt: number;
  readonly lastStatus: number | null;
  readonly lastError: string | null;
}

/**
 * Records an attempt and hands the lease back. Fenced by the lease: false when another worker
 * took the delivery over meanwhile (this one's lease ran out), which then records its own.
 */
export async function recordDeliveryAttempt(db: Kysely<Database>, a: AttemptRecord): Promise<boolean> {
  const r = await db
    .updateTable('webhook_deliveries')
    .set({
      status: a.status,
      attempts: a.attempts,
      next_attempt_at: a.nextAttemptAt,
      last_attempt_at: a.at,
      last_status: a.lastStatus,
      last_error: a.lastError,
      finished_at: a.status === 'pending' ? null : a.at,
      ...NO_LEASE,
    })
    .where('id', '=', a.id)
    .where(deliveryLeases.heldBy(a.owner))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export interface DeliveryListing extends WebhookDeliveryRow {
  readonly eventType: string;
  readonly applicationId: string;
  readonly createdAt: number;
}

export interface DeliveryFilter {
  readonly endpointId?: string;
  readonly applicationId?: string;
  /** Only the deliveries of this environment's applications. */
  readonly environment?: Environment;
  readonly status?: WebhookDeliveryStatus;
  /** The event's id (its webhook-id). */
  readonly messageId?: string;
  /** A page: the deliveries after (older than) this position. */
  readonly after?: PagePosition | null;
  readonly limit: number;
}

/**
 * Deliveries newest event first: by the event's time, then by delivery id, which starts with the
 * event's id (a UUIDv7, in time order), so an event's deliveries stay together.
 */
export async function listWebhookDeliveries(
  db: Kysely<Database>,
  filter: DeliveryFilter,
): Promise<DeliveryListing[]> {
  let q = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_messages as m', 'm.id', 'd.message_id')
    .selectAll('d')
    .select(['m.event_type as eventType', 'm.application_id as applicationId', 'm.created_at as createdAt']);
  if (filter.endpointId !== undefined) q = q.where('d.endpoint_id', '=', filter.endpointId);
  if (filter.applicationId !== undefined) q = q.where('m.application_id', '=', filter.applicationId);
  const { environment } = filter;
  if (environment !== undefined)
    q = q.where('m.application_id', 'in', (eb) =>
      eb.selectFrom('applications').select('id').where('environment', '=', environment),
    );
  if (filter.status !== undefined) q = q.where('d.status', '=', filter.status);
  if (filter.messageId !== undefined) q = q.where('d.message_id', '=', filter.messageId);
  if (filter.after) q = q.where(afterPosition('m.created_at', 'd.id', filter.after, 'desc'));
  return q.orderBy('m.created_at', 'desc').orderBy('d.id', 'desc').limit(filter.limit).execute();
}

/** Up to `limit` deliveries that finished (delivered or given up) before `before`. */
export async function deleteFinishedDeliveries(
  db: Kysely<Database>,
  before: number,
  limit: number,
): Promise<number> {
  const r = await db
    .deleteFrom('webhook_deliveries')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('status', 'in', ['delivered', 'failed'])
        .where('finished_at', '<', before)
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Up to `limit` events older than `before` that no delivery refers to any more. */
export async function deleteDeliveredMessages(
  db: Kysely<Database>,
  before: number,
  limit: number,
): Promise<number> {
  const r = await db
    .deleteFrom('webhook_messages')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('webhook_messages as m')
        .select('m.id')
        .where('m.created_at', '<', before)
        .where((w) =>
          w.not(
            w.exists(
              w
                .selectFrom('webhook_deliveries as d')
                .select(sql.lit(1).as('one'))
                .whereRef('d.message_id', '=', 'm.id'),
            ),
          ),
        )
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** For the metrics: deliveries still pending, and the earliest due time among enabled endpoints'. */
export async function summarizePendingDeliveries(
  db: Kysely<Database>,
  now: number,
): Promise<{ pending: number; oldestDueAt: number | null }> {
  const pending = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('status', '=', 'pending')
    .executeTakeFirst();
  const oldest = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select((eb) => eb.fn.min<number | string | null>('d.next_attempt_at').as('due'))
    .where('d.status', '=', 'pending')
    .where('d.next_attempt_at', '<=', now)
    .where('e.disabled_at', 'is', null)
    .executeTakeFirst();
  return {
    pending: Number(pending?.n ?? 0),
    oldestDueAt: oldest?.due === null || oldest?.due === undefined ? null : Number(oldest.due),
  };
}
