import type { PlanItem } from '../../domain/plan-items.js';
import { markApplicationRevoked } from '../../store/repositories/applications.js';
import { updatePasskey } from '../../store/repositories/passkeys.js';
import {
  replaceGrants,
  replaceSubscriptions,
  setManagedBy,
  setRotateLabel,
} from '../../store/repositories/tenancy-writes.js';
import { deleteWebhookEndpoint } from '../../store/repositories/webhook-endpoints.js';
import { addApplicationSecret } from '../tenancy/rotate-application-secret.js';
import { replaceWebhookSecret } from '../webhooks/rotate-webhook-secret.js';
import { type ApplyContext, clientIdOf, endpointOf, itemsOf } from './apply-context.js';

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
      const endpoint = ctx.endpoints.get(target);
      await deleteWebhookEndpoint(ctx.trx, target);
      const applicationId = endpoint?.applicationId;
      if (applicationId && apps.has(applicationId)) ctx.changes.push({ applicationId });
      ctx.audit.push({
        action: 'webhook_endpoint.removed',
        targetType: 'webhook_endpoint',
        targetId: target,
        details: { ...ctx.stamp, applicationId, origin: originOf(ctx, target) },
      });
    }
  }
}

/** Claims the adopted objects for the stack; what else they differ in is changed with the changes. */
export async function writeAdoptions(ctx: ApplyContext): Promise<void> {
  for (const kind of ['client', 'application', 'passkey', 'webhook'] as const) {
    const items = itemsOf(ctx.plan.adoptions, kind);
    await setManagedBy(ctx.trx, kind, items.map(id), ctx.plan.stack);
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

/** An endpoint's URL in the audit trail: its origin alone (a receiver's token may be in the rest). */
const originOf = (ctx: ApplyContext, endpointId: string): string | null => {
  const endpoint = ctx.endpoints.get(endpointId);
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
  if (fields.rotate) await setRotateLabel(ctx.trx, 'application', target, fields.rotate.to as string);
  const { rotate: _label, ...changed } = fields;
  if (Object.keys(changed).length > 0)
    ctx.audit.push({
      action: 'application.updated',
      targetType: 'application',
      targetId: target,
      details: { ...ctx.stamp, ...changed },
    });
  if (item.rotate) {
    const rotated = await addApplicationSecret(ctx.trx, { applicationId: target, now: ctx.now });
    ctx.secrets.applications[item.key] = { clientId: rotated.clientId, clientSecret: rotated.clientSecret };
    const label = fields.rotate?.to ?? null;
    ctx.audit.push({ ...rotated.audit, details: { ...ctx.stamp, ...rotated.audit.details, label } });
  }
  ctx.changes.push({ applicationId: target });
}

async function changeWebhook(ctx: ApplyContext, item: PlanItem): Promise<void> {
  const target = id(item);
  const fields = item.fields ?? {};
  const endpoint = endpointOf(ctx, target);
  if (fields.events) await replaceSubscriptions(ctx.trx, target, fields.events.to as string[]);
  if (fields.rotate) await setRotateLabel(ctx.trx, 'webhook', target, fields.rotate.to as string);
  if (fields.events)
    ctx.audit.push({
      action: 'webhook_endpoint.updated',
      targetType: 'webhook_endpoint',
      targetId: target,
      details: { ...ctx.stamp, applicationId: endpoint.applicationId, events: fields.events },
    });
  if (item.rotate) {
    const rotated = await replaceWebhookSecret(ctx.trx, {
      endpointId: target,
      applicationId: endpoint.applicationId,
      now: ctx.now,
    });
    ctx.secrets.webhooks[item.key] = rotated.secret;
    ctx.audit.push({ ...rotated.audit, details: { ...ctx.stamp, ...rotated.audit.details } });
  }
}
