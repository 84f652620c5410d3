import { randomUUID } from 'node:crypto';
import { credentialHint, generateCredential, hashCredential } from '../../domain/credentials.js';
import type { PlanItem } from '../../domain/plan-items.js';
import { normalizedUrl, passkeyKey, webhookKey } from '../../domain/tenancy-file.js';
import { WEBHOOK_EVENT_TYPES } from '../../domain/webhook-event.js';
import { newWebhookSecret } from '../../domain/webhook-signature.js';
import { applicationsWithUsablePasskeys, insertRows } from '../../store/repositories/tenancy-writes.js';
import { type ApplyContext, applicationIdOf } from './apply-context.js';

const keyed = (items: readonly PlanItem[]) => new Set(items.map((i) => `${i.kind} ${i.key}`));

/**
 * The plan's creations, a few multi-row statements per kind, in dependency order: clients, then
 * applications with their secrets and grants, then passkeys and endpoints.
 */
export async function writeCreations(ctx: ApplyContext): Promise<void> {
  const created = keyed(ctx.plan.creations);
  await createClients(ctx, created);
  await createApplications(ctx, created);
  await createPasskeys(ctx, created);
  await createWebhooks(ctx, created);
}

async function createClients(ctx: ApplyContext, created: Set<string>): Promise<void> {
  const { stack, environment } = ctx.plan;
  const rows = (ctx.file.clients ?? [])
    .filter((c) => created.has(`client ${c.name}`))
    .map((c) => ({ id: randomUUID(), environment, name: c.name, created_at: ctx.now, managed_by: stack }));
  await insertRows(ctx.trx, 'clients', rows);
  for (const r of rows) {
    ctx.clientIds.set(r.name, r.id);
    ctx.audit.push({
      action: 'client.created',
      targetType: 'client',
      targetId: r.id,
      details: { ...ctx.stamp, name: r.name },
    });
  }
}

async function createApplications(ctx: ApplyContext, created: Set<string>): Promise<void> {
  const { stack, environment } = ctx.plan;
  const specs = (ctx.file.applications ?? []).filter((a) => created.has(`application ${a.name}`));
  const apps = specs.map((spec) => ({
    spec,
    id: randomUUID(),
    clientId: generateCredential('clientId'),
    clientSecret: generateCredential('clientSecret'),
    secretId: randomUUID(),
    clientNames: [...new Set(spec.clientNames ?? [])].sort(),
  }));
  await insertRows(
    ctx.trx,
    'applications',
    apps.map((a) => ({
      id: a.id,
      environment,
      client_id: a.clientId,
      name: a.spec.name,
      status: 'active' as const,
      created_at: ctx.now,
      revoked_at: null,
      managed_by: stack,
      rotate_label: a.spec.rotate ?? null,
    })),
  );
  await insertRows(
    ctx.trx,
    'application_secrets',
    apps.map((a) => ({
      id: a.secretId,
      application_id: a.id,
      secret_hash: hashCredential(a.clientSecret),
      created_at: ctx.now,
    })),
  );
  await insertRows(
    ctx.trx,
    'application_grants',
    apps.flatMap((a) => a.clientNames.map((n) => ({ application_id: a.id, client_id: clientIdOf(ctx, n) }))),
  );
  for (const a of apps) {
    ctx.applicationIds.set(a.spec.name, a.id);
    ctx.secrets.applications[a.spec.name] = { clientId: a.clientId, clientSecret: a.clientSecret };
    ctx.audit.push({
      action: 'application.created',
      targetType: 'application',
      targetId: a.id,
      details: {
        ...ctx.stamp,
        clientId: a.clientId,
        name: a.spec.name,
        secretId: a.secretId,
        clientNames: a.clientNames,
      },
    });
  }
}

export function clientIdOf(ctx: ApplyContext, name: string): string {
  const id = ctx.clientIds.get(name);
  if (!id) throw new Error(`no client ${name} in this apply`);
  return id;
}

async function createPasskeys(ctx: ApplyContext, created: Set<string>): Promise<void> {
  const { config } = ctx.deps;
  const wanted = (ctx.file.applications ?? []).flatMap((app) =>
    (app.passkeys ?? [])
      .filter((p) => created.has(`passkey ${passkeyKey(app.name, p.name)}`))
      .map((spec) => ({ app: app.name, applicationId: applicationIdOf(ctx, app.name), spec })),
  );
  const newApps = new Set(ctx.plan.creations.filter((c) => c.kind === 'application').map((c) => c.key));
  const newAppIds = new Set(wanted.filter((w) => newApps.has(w.app)).map((w) => w.applicationId));
  const existing = [...new Set(wanted.map((w) => w.applicationId))].filter((id) => !newAppIds.has(id));
  // The first usable passkey of an application is its default (services/tenancy/create-passkey.ts).
  const hasDefault = await applicationsWithUsablePasskeys(ctx.trx, existing, ctx.now);
  const rows = wanted.map(({ app, applicationId, spec }) => {
    const value = generateCredential('passkey');
    const expiresAt = spec.expiresAt === undefined ? null : Date.parse(spec.expiresAt);
    const isDefault = !hasDefault.has(applicationId);
    hasDefault.add(applicationId);
    ctx.secrets.passkeys[passkeyKey(app, spec.name)] = value;
    return {
      id: randomUUID(),
      environment: ctx.plan.environment,
      application_id: applicationId,
      api: spec.api,
      key_hash: hashCredential(value),
      key_hint: credentialHint(value),
      rate_limit_per_minute: spec.rateLimitPerMinute ?? config.defaultRateLimitPerMinute,
      quota_per_day: spec.quotaPerDay ?? config.defaultQuotaPerDay,
      status: 'active' as const,
      is_default: isDefault ? 1 : 0,
      created_at: ctx.now,
      revoked_at: null,
      expires_at: expiresAt,
      name: spec.name,
      managed_by: ctx.plan.stack,
    };
  });
  await insertRows(ctx.trx, 'passkeys', rows);
  for (const r of rows) {
    // An application that had none may be cached as having no default passkey.
    if (!newAppIds.has(r.application_id)) ctx.changes.push({ passkeyId: r.id });
    ctx.audit.push({
      action: 'passkey.created',
      targetType: 'passkey',
      targetId: r.id,
      details: {
        ...ctx.stamp,
        applicationId: r.application_id,
        name: r.name,
        api: r.api,
        rateLimitPerMinute: r.rate_limit_per_minute,
        quotaPerDay: r.quota_per_day,
        default: r.is_default === 1,
        expiresAt: r.expires_at,
      },
    });
  }
}

async function createWebhooks(ctx: ApplyContext, created: Set<string>): Promise<void> {
  const wanted = (ctx.file.applications ?? []).flatMap((app) =>
    (app.webhooks ?? [])
      .filter((w) => created.has(`webhook ${webhookKey(app.name, normalizedUrl(w.url))}`))
      .map((spec) => ({ app: app.name, applicationId: applicationIdOf(ctx, app.name), spec })),
  );
  const endpoints = wanted.map(({ app, applicationId, spec }) => {
    const url = ctx.urls.get(spec.url);
    if (!url) throw new Error(`the webhook URL of ${app} was not checked`);
    const secret = newWebhookSecret();
    ctx.secrets.webhooks[webhookKey(app, url.href)] = secret;
    return { id: randomUUID(), applicationId, url, spec, secret };
  });
  await insertRows(
    ctx.trx,
    'webhook_endpoints',
    endpoints.map((e) => ({
      id: e.id,
      application_id: e.applicationId,
      url: e.url.href,
      created_at: ctx.now,
      managed_by: ctx.plan.stack,
      rotate_label: e.spec.rotate ?? null,
    })),
  );
  const events = (e: (typeof endpoints)[number]) => [...new Set(e.spec.events ?? WEBHOOK_EVENT_TYPES)].sort();
  await insertRows(
    ctx.trx,
    'webhook_subscriptions',
    endpoints.flatMap((e) => events(e).map((event_type) => ({ endpoint_id: e.id, event_type }))),
  );
  await insertRows(
    ctx.trx,
    'webhook_secrets',
    endpoints.map((e) => ({
      id: randomUUID(),
      endpoint_id: e.id,
      secret: e.secret,
      created_at: ctx.now,
      expires_at: null,
    })),
  );
  for (const e of endpoints) {
    // Instances skip the event fan-out for applications they know to have no endpoint.
    ctx.changes.push({ applicationId: e.applicationId });
    ctx.audit.push({
      action: 'webhook_endpoint.created',
      targetType: 'webhook_endpoint',
      targetId: e.id,
      // The origin only: a receiver's path or query may carry a token of its own.
      details: { ...ctx.stamp, applicationId: e.applicationId, origin: e.url.origin, eventTypes: events(e) },
    });
  }
}
