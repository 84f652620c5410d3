import { randomUUID } from 'node:crypto';
import { generateCredential, hashCredential } from '../../domain/credentials.js';
import type { PlanItem } from '../../domain/plan-items.js';
import { newWebhookSecret } from '../../domain/webhook-signature.js';
import { insertSecret, markApplicationRevoked } from '../../store/repositories/applications.js';
import { updatePasskey } from '../../store/repositories/passkeys.js';
import {
  type ManagedTable,
  replaceGrants,
  replaceSubscriptions,
  setManagedBy,
  setRotateLabel,
} from '../../store/repositories/tenancy-writes.js';
import {
  deleteWebhookEndpoint,
  expireWebhookSecrets,
  insertWebhookSecret,
} from '../../store/repositories/webhook-endpoints.js';
import { DEFAULT_SECRET_GRACE_MS } from '../webhooks/rotate-webhook-secret.js';
import { type ApplyContext, itemsOf } from './apply-context.js';
import { clientIdOf } from './write-creations.js';

const TABLES: Record<PlanItem['kind'], ManagedTable> = {
  client: 'clients',
  application: 'applications',
  passkey: 'passkeys',
  webhook: 'webhook_endpoints',
};
const TARGETS = {
  client: 'client',
  application: 'application',
  passkey: 'passkey',
  webhook: 'webhook_endpoint',
} as const;

const id = (item: PlanItem): string => {
  if (!item.id) throw new Error(`the plan's ${item.kind} ${item.key} has no id`);
  return item.id;
};

/**
 * The prune's revocations, first: what a rename replaces is gone before its successor is written.
 * An application revoked takes its tokens and passkeys with it; an endpoint removed, its pending
 * deliveries.
 */
export async function writeRevocations(ctx: ApplyContext): Promise<void> {
  const apps = new Map(ctx.state.applications.map((a) => [a.id, a]));
  const endpoints = new Map(ctx.state.webhooks.map((w) => [w.id, w]));
  for (const item of ctx.plan.revocations) {
    const target = id(item);
    if (item.kind === 'application') {
      await markApplicationRevoked(ctx.trx, target, ctx.now);
      ctx.changes.push({ applicationId: target });
      ctx.audit.push({
        action: 'application.revoked',
        targetType: 'application',
        targetId: target,
        details: { ...ctx.stamp },
      });
    } else if (item.kind === 'passkey') {
      await updatePasskey(ctx.trx, target, { revokedAt: ctx.now });
      ctx.changes.push({ passkeyId: target });
      ctx.audit.push({
        action: 'passkey.revoked',
        targetType: 'passkey',
        targetId: target,
        details: { ...ctx.stamp },
      });
    } else if (item.kind === 'webhook') {
      const endpoint = endpoints.get(target);
      await deleteWebhookEndpoint(ctx.trx, target);
      const applicationId = endpoint?.applicationId;
      if (applicationId && apps.has(applicationId)) ctx.changes.push({ applicationId });
      ctx.audit.push({
        action: 'webhook_endpoint.removed',
        targetType: 'webhook_endpoint',
        targetId: target,
        details: { ...ctx.stamp, applicationId, origin: endpoint ? new URL(endpoint.url).origin : null },
      });
    }
  }
}

/** Claims the adopted objects for the stack; what else they differ in is changed with the changes. */
export async function writeAdoptions(ctx: ApplyContext): Promise<void> {
  for (const kind of ['client', 'application', 'passkey', 'webhook'] as const) {
    const items = itemsOf(ctx.plan.adoptions, kind);
    await setManagedBy(ctx.trx, TABLES[kind], items.map(id), ctx.plan.stack);
    for (const item of items)
      ctx.audit.push({
        action: `${TARGETS[kind]}.adopted`,
        targetType: TARGETS[kind],
        targetId: id(item),
        // The id names it; an endpoint's URL only by its origin (a receiver's token may be in it).
        details: { ...ctx.stamp, ...(kind === 'webhook' ? { origin: originOf(ctx, id(item)) } : {}) },
      });
  }
}

const originOf = (ctx: ApplyContext, endpointId: string): string | null => {
  const endpoint = ctx.state.webhooks.find((w) => w.id === endpointId);
  return endpoint ? new URL(endpoint.url).origin : null;
};

/** Changed grants, limits, expiries, subscriptions and `rotate:` labels, adopted objects' included. */
export async function writeChanges(ctx: ApplyContext): Promise<void> {
  for (const item of [...ctx.plan.adoptions, ...ctx.plan.changes]) {
    const fields = item.fields ?? {};
    if (Object.keys(fields).length === 0) continue;
    if (item.kind === 'application') await changeApplication(ctx, item);
    else if (item.kind === 'passkey') {
      const to = (f: string) => fields[f]?.to;
      await updatePasskey(ctx.trx, id(item), {
        ...(fields.rateLimitPerMinute ? { ratePerMinute: to('rateLimitPerMinute') as number } : {}),
        ...(fields.quotaPerDay ? { quotaPerDay: to('quotaPerDay') as number } : {}),
        ...(fields.expiresAt
          ? { expiresAt: to('expiresAt') === null ? null : Date.parse(to('expiresAt') as string) }
          : {}),
      });
      ctx.changes.push({ passkeyId: id(item) });
      ctx.audit.push({
        action: 'passkey.updated',
        targetType: 'passkey',
        targetId: id(item),
        details: { ...ctx.stamp, ...fields },
      });
    } else if (item.kind === 'webhook') await changeWebhook(ctx, item);
  }
}

async function changeApplication(ctx: ApplyContext, item: PlanItem): Promise<void> {
  const target = id(item);
  const fields = item.fields ?? {};
  if (fields.clientNames)
    await replaceGrants(
      ctx.trx,
      target,
      (fields.clientNames.to as string[]).map((n) => clientIdOf(ctx, n)),
    );
  if (fields.rotate) await setRotateLabel(ctx.trx, 'applications', target, fields.rotate.to as string);
  const { rotate: _label, ...changed } = fields;
  if (Object.keys(changed).length > 0)
    ctx.audit.push({
      action: 'application.updated',
      targetType: 'application',
      targetId: target,
      details: { ...ctx.stamp, ...changed },
    });
  if (item.rotate) {
    // A second active secret, as services/tenancy/rotate-application-secret.ts adds: the old one
    // works until it is retired, so deployments switch over without downtime.
    const clientSecret = generateCredential('clientSecret');
    const secretId = randomUUID();
    await insertSecret(ctx.trx, {
      id: secretId,
      applicationId: target,
      secretHash: hashCredential(clientSecret),
      createdAt: ctx.now,
    });
    const app = ctx.state.applications.find((a) => a.id === target);
    ctx.secrets.applications[item.key] = { clientId: app?.clientId ?? '', clientSecret };
    ctx.audit.push({
      action: 'application.secret_rotated',
      targetType: 'application',
      targetId: target,
      details: { ...ctx.stamp, secretId, label: fields.rotate?.to ?? null },
    });
  }
  ctx.changes.push({ applicationId: target });
}

async function changeWebhook(ctx: ApplyContext, item: PlanItem): Promise<void> {
  const target = id(item);
  const fields = item.fields ?? {};
  const endpoint = ctx.state.webhooks.find((w) => w.id === target);
  if (fields.events) await replaceSubscriptions(ctx.trx, target, fields.events.to as string[]);
  if (fields.rotate) await setRotateLabel(ctx.trx, 'webhook_endpoints', target, fields.rotate.to as string);
  if (fields.events)
    ctx.audit.push({
      action: 'webhook_endpoint.updated',
      targetType: 'webhook_endpoint',
      targetId: target,
      details: { ...ctx.stamp, applicationId: endpoint?.applicationId, events: fields.events },
    });
  if (item.rotate) {
    // As services/webhooks/rotate-webhook-secret.ts: the old secret signs beside the new one for
    // the grace period, so the receiver switches whenever it likes within it.
    const secret = newWebhookSecret();
    const secretId = randomUUID();
    const previousExpiresAt = ctx.now + DEFAULT_SECRET_GRACE_MS;
    await insertWebhookSecret(ctx.trx, {
      id: secretId,
      endpoint_id: target,
      secret,
      created_at: ctx.now,
      expires_at: null,
    });
    await expireWebhookSecrets(ctx.trx, target, { secretId, expiresAt: previousExpiresAt });
    ctx.secrets.webhooks[item.key] = secret;
    ctx.audit.push({
      action: 'webhook_endpoint.secret_rotated',
      targetType: 'webhook_endpoint',
      targetId: target,
      details: { ...ctx.stamp, applicationId: endpoint?.applicationId, secretId, previousExpiresAt },
    });
  }
}
