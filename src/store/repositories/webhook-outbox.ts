import { type Kysely, type QueryCreator, sql } from 'kysely';
import type { WebhookEvent } from '../../domain/webhook-event.js';
import { chunks } from '../chunks.js';
import type { Database } from '../schema.js';

// Events are written to the outbox in the transaction of the change they report (docs/webhooks.md,
// Delivery), one delivery per endpoint subscribed at that moment. An event nobody subscribed to
// leaves no row. A disabled endpoint's deliveries are written too and wait: enabling it again
// sends what it missed.

const ROWS_PER_INSERT = 500;

/**
 * Appends events and their deliveries in the caller's transaction: one read when no endpoint of
 * these applications subscribes to anything, which is the common case and costs the erasure path
 * nothing more. Returns how many deliveries were written.
 */
export async function enqueueWebhookEvents(
  db: Kysely<Database>,
  events: readonly WebhookEvent[],
): Promise<number> {
  if (events.length === 0) return 0;
  const subscriptions = await db
    .selectFrom('webhook_endpoints as e')
    .innerJoin('webhook_subscriptions as s', 's.endpoint_id', 'e.id')
    .select(['e.id as endpointId', 'e.application_id as applicationId', 's.event_type as eventType'])
    .where('e.application_id', 'in', [...new Set(events.map((e) => e.applicationId))])
    .execute();
  if (subscriptions.length === 0) return 0;
  const deliveries = events.flatMap((event) =>
    subscriptions
      .filter((s) => s.applicationId === event.applicationId && s.eventType === event.type)
      .map((s) => deliveryRow(event, s.endpointId)),
  );
  const messageIds = new Set(deliveries.map((d) => d.message_id));
  const messages = events.filter((e) => messageIds.has(e.id)).map(messageRow);
  for (const part of chunks(messages, ROWS_PER_INSERT))
    await db.insertInto('webhook_messages').values(part).execute();
  for (const part of chunks(deliveries, ROWS_PER_INSERT))
    await db.insertInto('webhook_deliveries').values(part).execute();
  return deliveries.length;
}

/**
 * The same for one event as two inserts that fit in a PostgreSQL statement's WITH list, so a
 * privacy request, its audit event and its webhook event still commit in one round trip. Both
 * read the subscriptions in the statement's one snapshot, so a message is written exactly when
 * a delivery is.
 */
export function webhookEventInserts(q: QueryCreator<Database>, event: WebhookEvent) {
  const subscribed = () =>
    q
      .selectFrom('webhook_endpoints as e')
      .innerJoin('webhook_subscriptions as s', 's.endpoint_id', 'e.id')
      .where('e.application_id', '=', event.applicationId)
      .where('s.event_type', '=', event.type);
  // Parameters in a select list have no type of their own on PostgreSQL: hence the casts.
  const text = (value: string) => sql<string>`cast(${value} as text)`;
  const bigint = (value: number) => sql<number>`cast(${value} as bigint)`;
  return {
    message: q
      .insertInto('webhook_messages')
      .columns(['id', 'application_id', 'event_type', 'payload', 'created_at'])
      .expression(
        q
          .selectNoFrom([
            text(event.id).as('id'),
            text(event.applicationId).as('application_id'),
            text(event.type).as('event_type'),
            text(event.payload).as('payload'),
            bigint(event.createdAt).as('created_at'),
          ])
          .where((eb) => eb.exists(subscribed().select('e.id'))),
      )
      .returning('id'),
    deliveries: q
      .insertInto('webhook_deliveries')
      .columns(['id', 'message_id', 'endpoint_id', 'status', 'attempts', 'next_attempt_at'])
      .expression(
        subscribed().select((eb) => [
          sql<string>`${text(event.id)} || ':' || ${eb.ref('e.id')}`.as('id'),
          text(event.id).as('message_id'),
          'e.id as endpoint_id',
          sql<'pending'>`'pending'`.as('status'),
          sql<number>`0`.as('attempts'),
          bigint(event.createdAt).as('next_attempt_at'),
        ]),
      )
      .returning('id'),
  };
}

function messageRow(event: WebhookEvent) {
  return {
    id: event.id,
    application_id: event.applicationId,
    event_type: event.type,
    payload: event.payload,
    created_at: event.createdAt,
  };
}

/** A new delivery: its lease and attempt columns start null, as webhookEventInserts leaves them. */
function deliveryRow(event: WebhookEvent, endpointId: string) {
  return {
    id: `${event.id}:${endpointId}`,
    message_id: event.id,
    endpoint_id: endpointId,
    status: 'pending' as const,
    attempts: 0,
    next_attempt_at: event.createdAt,
  };
}
