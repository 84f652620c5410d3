import type { Kysely } from 'kysely';
import type { Environment } from '../../domain/environment.js';
import type { ApplicationState, TenancyState } from '../../domain/tenancy-state.js';
import type { Database } from '../schema.js';
import { readTenancyRevision } from './tenancy-revisions.js';

/**
 * What an environment holds that a configuration file can name, in a fixed number of queries
 * whatever its size. The revision is read first: a change committed between it and the rest makes
 * the state newer than its revision, so an apply of a plan computed from it is refused rather
 * than applied to a state it did not see.
 */
export async function readTenancyState(
  db: Kysely<Database>,
  environment: Environment,
): Promise<TenancyState> {
  const revision = await readTenancyRevision(db, environment);
  const clients = await db
    .selectFrom('clients')
    .select(['id', 'name', 'managed_by'])
    .where('environment', '=', environment)
    .orderBy('name')
    .execute();
  const apps = await db
    .selectFrom('applications')
    .select(['id', 'client_id', 'name', 'managed_by', 'rotate_label'])
    .where('environment', '=', environment)
    .where('status', '=', 'active')
    .orderBy('name')
    .orderBy('created_at')
    .execute();
  const secrets = await db
    .selectFrom('application_secrets')
    .innerJoin('applications', 'applications.id', 'application_secrets.application_id')
    .select(['application_secrets.application_id as id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('applications.environment', '=', environment)
    .where('applications.status', '=', 'active')
    .where('application_secrets.retired_at', 'is', null)
    .groupBy('application_secrets.application_id')
    .execute();
  const grants = await db
    .selectFrom('application_grants')
    .innerJoin('clients', 'clients.id', 'application_grants.client_id')
    .select(['application_grants.application_id as id', 'clients.name'])
    .where('clients.environment', '=', environment)
    .execute();
  const secretCount = new Map(secrets.map((s) => [s.id, Number(s.n)]));
  const granted = new Map<string, string[]>();
  for (const g of grants) granted.set(g.id, [...(granted.get(g.id) ?? []), g.name]);
  const applications: ApplicationState[] = apps.map((a) => ({
    id: a.id,
    clientId: a.client_id,
    name: a.name,
    managedBy: a.managed_by,
    rotateLabel: a.rotate_label,
    activeSecrets: secretCount.get(a.id) ?? 0,
    // In JavaScript's order, not the collation's, so every store lists them alike.
    clientNames: (granted.get(a.id) ?? []).sort(),
  }));
  return {
    environment,
    revision,
    clients: clients.map((c) => ({ id: c.id, name: c.name, managedBy: c.managed_by })),
    applications,
    passkeys: await readPasskeys(db, environment),
    webhooks: await readWebhooks(db, environment),
  };
}

async function readPasskeys(
  db: Kysely<Database>,
  environment: Environment,
): Promise<TenancyState['passkeys']> {
  const rows = await db
    .selectFrom('passkeys')
    .select([
      'id',
      'application_id',
      'name',
      'api',
      'rate_limit_per_minute',
      'quota_per_day',
      'expires_at',
      'managed_by',
    ])
    .where('environment', '=', environment)
    .where('status', '=', 'active')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((p) => ({
    id: p.id,
    applicationId: p.application_id,
    name: p.name,
    api: p.api,
    ratePerMinute: p.rate_limit_per_minute,
    quotaPerDay: p.quota_per_day,
    expiresAt: p.expires_at === null ? null : Number(p.expires_at),
    managedBy: p.managed_by,
  }));
}

async function readWebhooks(
  db: Kysely<Database>,
  environment: Environment,
): Promise<TenancyState['webhooks']> {
  const endpoints = await db
    .selectFrom('webhook_endpoints')
    .innerJoin('applications', 'applications.id', 'webhook_endpoints.application_id')
    .select([
      'webhook_endpoints.id',
      'webhook_endpoints.application_id',
      'webhook_endpoints.url',
      'webhook_endpoints.managed_by',
      'webhook_endpoints.rotate_label',
    ])
    .where('applications.environment', '=', environment)
    .orderBy('webhook_endpoints.created_at')
    .orderBy('webhook_endpoints.id')
    .execute();
  const subscriptions = await db
    .selectFrom('webhook_subscriptions')
    .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_subscriptions.endpoint_id')
    .innerJoin('applications', 'applications.id', 'webhook_endpoints.application_id')
    .select(['webhook_subscriptions.endpoint_id as id', 'webhook_subscriptions.event_type'])
    .where('applications.environment', '=', environment)
    .execute();
  const events = new Map<string, string[]>();
  for (const s of subscriptions) events.set(s.id, [...(events.get(s.id) ?? []), s.event_type]);
  return endpoints.map((e) => ({
    id: e.id,
    applicationId: e.application_id,
    url: e.url,
    events: events.get(e.id) ?? [],
    managedBy: e.managed_by,
    rotateLabel: e.rotate_label,
  }));
}
