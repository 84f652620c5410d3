import { randomUUID } from 'node:crypto';
import { credentialHint, generateCredential, hashCredential } from '../../domain/credentials.js';
import type { PlanItem } from '../../domain/plan-items.js';
import { normalizedUrl, passkeyKey, webhookKey } from '../../domain/tenancy-file.js';
import { WEBHOOK_EVENT_TYPES } from '../../domain/webhook-event.js';
import { newWebhookSecret } from '../../domain/webhook-signature.js';
import { insertApplications, type NewApplication } from '../../store/repositories/applications.js';
import { insertClients } from '../../store/repositories/clients.js';
import {
  applicationsWithUsablePasskeys,
  insertPasskeys,
  type NewPasskey,
} from '../../store/repositories/passkeys.js';
import {
  insertWebhookEndpoints,
  type NewWebhookEndpoint,
} from '../../store/repositories/webhook-endpoints.js';
import { type ApplyContext, applicationIdOf, clientIdOf } from './apply-context.js';

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
  const clients = (ctx.file.clients ?? [])
    .filter((c) => created.has(`client ${c.name}`))
    .map((c) => ({ id: randomUUID(), environment, name: c.name, createdAt: ctx.now, managedBy: stack }));
  await insertClients(ctx.trx, clients);
  for (const c of clients) {
    ctx.clientIds.set(c.name, c.id);
    ctx.audit.push({
      action: 'client.created',
      targetType: 'client',
      targetId: c.id,
      details: { ...ctx.stamp, name: c.name },
    });
  }
}

async function createApplications(ctx: ApplyContext, created: Set<string>): Promise<void> {
  const { stack, environment } = ctx.plan;
  const specs = (ctx.file.applications ?? []).filter((a) => created.has(`application ${a.name}`));
  const apps = specs.map((spec) => {
    const clientSecret = generateCredential('clientSecret');
    const clientNames = [...new Set(spec.clientNames ?? [])].sort();
    const app: NewApplication = {
      id: randomUUID(),
      environment,
      clientId: generateCredential('clientId'),
      name: spec.name,
      status: 'active',
      createdAt: ctx.now,
      revokedAt: null,
      managedBy: stack,
      rotateLabel: spec.rotate ?? null,
      secret: { id: randomUUID(), secretHash: hashCredential(clientSecret) },
      grantedClientIds: clientNames.map((n) => clientIdOf(ctx, n)),
    };
    return { app, clientSecret, clientNames };
  });
  await insertApplications(
    ctx.trx,
    apps.map((a) => a.app),
  );
  for (const { app, clientSecret, clientNames } of apps) {
    ctx.applicationIds.set(app.name, app.id);
    ctx.secrets.applications[app.name] = { clientId: app.clientId, clientSecret };
    ctx.audit.push({
      action: 'application.created',
      targetType: 'application',
      targetId: app.id,
      details: { ...ctx.stamp, clientId: app.clientId, name: app.name, secretId: app.secret.id, clientNames },
    });
  }
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
  const passkeys = wanted.map(({ app, applicationId, spec }): NewPasskey => {
    const value = generateCredential('passkey');
    const isDefault = !hasDefault.has(applicationId);
    hasDefault.add(applicationId);
    ctx.secrets.passkeys[passkeyKey(app, spec.name)] = value;
    return {
      id: randomUUID(),
      environment: ctx.plan.environment,
      applicationId,
      api: spec.api,
      keyHash: hashCredential(value),
      keyHint: credentialHint(value),
      ratePerMinute: spec.rateLimitPerMinute ?? config.defaultRateLimitPerMinute,
      quotaPerDay: spec.quotaPerDay ?? config.defaultQuotaPerDay,
      status: 'active',
      isDefault,
      createdAt: ctx.now,
      revokedAt: null,
      expiresAt: spec.expiresAt === undefined ? null : Date.parse(spec.expiresAt),
      name: spec.name,
      managedBy: ctx.plan.stack,
    };
  });
  await insertPasskeys(ctx.trx, passkeys);
  for (const p of passkeys) {
    // An application that had none may be cached as having no default passkey.
    if (!newAppIds.has(p.applicationId)) ctx.changes.push({ passkeyId: p.id });
    ctx.audit.push({
      action: 'passkey.created',
      targetType: 'passkey',
      targetId: p.id,
      details: {
        ...ctx.stamp,
        applicationId: p.applicationId,
        name: p.name,
        api: p.api,
        rateLimitPerMinute: p.ratePerMinute,
        quotaPerDay: p.quotaPerDay,
        default: p.isDefault,
        expiresAt: p.expiresAt,
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
    const endpoint: NewWebhookEndpoint = {
      id: randomUUID(),
      applicationId,
      url: url.href,
      createdAt: ctx.now,
      eventTypes: [...new Set(spec.events ?? WEBHOOK_EVENT_TYPES)].sort(),
      secret: { id: randomUUID(), value: secret },
      managedBy: ctx.plan.stack,
      rotateLabel: spec.rotate ?? null,
    };
    return { endpoint, origin: url.origin };
  });
  await insertWebhookEndpoints(
    ctx.trx,
    endpoints.map((e) => e.endpoint),
  );
  for (const { endpoint: e, origin } of endpoints) {
    // Instances skip the event fan-out for applications they know to have no endpoint.
    ctx.changes.push({ applicationId: e.applicationId });
    ctx.audit.push({
      action: 'webhook_endpoint.created',
      targetType: 'webhook_endpoint',
      targetId: e.id,
      // The origin only: a receiver's path or query may carry a token of its own.
      details: { ...ctx.stamp, applicationId: e.applicationId, origin, eventTypes: e.eventTypes },
    });
  }
}
