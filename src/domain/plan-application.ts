import { MAX_ACTIVE_SECRETS } from './application.js';
import { iso } from './instant.js';
import { claim, type FieldChange, type PlanOptions, type PlanSink } from './plan-items.js';
import {
  type ApplicationSpec,
  normalizedUrl,
  type PasskeySpec,
  passkeyKey,
  type WebhookSpec,
  webhookKey,
} from './tenancy-file.js';
import type { ApplicationState, PasskeyState, WebhookState } from './tenancy-state.js';
import { WEBHOOK_EVENT_TYPES } from './webhook-event.js';

interface AppContext {
  readonly spec: ApplicationSpec;
  /** Its path in the file, `applications[3]`. */
  readonly at: string;
  readonly stack: string;
  readonly options: PlanOptions;
  readonly sink: PlanSink;
  readonly applications: ReadonlyMap<string, readonly ApplicationState[]>;
  readonly passkeys: ReadonlyMap<string, readonly PasskeyState[]>;
  readonly webhooks: ReadonlyMap<string, readonly WebhookState[]>;
  /** Clients an application may be granted: the file's and those the environment holds. */
  readonly clients: ReadonlySet<string>;
}

const sorted = (values: readonly string[]) => [...new Set(values)].sort();
const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * Plans one application of the file with its passkeys and endpoints; returns the existing
 * application it works on (its own, or adopted), if any.
 */
export function planApplication(c: AppContext): ApplicationState | undefined {
  const { spec, at, sink } = c;
  const r = claim(c.applications.get(spec.name) ?? [], c.stack, c.options.adopt);
  if (r.problem) {
    sink.problems.push({ path: at, message: `application ${spec.name} ${r.problem}` });
    return undefined;
  }
  (spec.clientNames ?? []).forEach((name, j) => {
    if (!c.clients.has(name))
      sink.problems.push({
        path: `${at}.clientNames[${j}]`,
        message: `unknown client ${name}: list it under clients, or create it first`,
      });
  });
  const clientNames = sorted(spec.clientNames ?? []);
  const found = r.found;
  if (!found) {
    sink.creations.push({ kind: 'application', key: spec.name });
    for (const [i, p] of (spec.passkeys ?? []).entries()) planPasskey(c, `${at}.passkeys[${i}]`, p, []);
    for (const [i, w] of (spec.webhooks ?? []).entries()) planWebhook(c, `${at}.webhooks[${i}]`, w, []);
    return undefined;
  }
  const fields: Record<string, FieldChange> = {};
  // Sorted here, not by the database: its collation may order 'Beta-DE' after 'acme-fr'.
  const granted = sorted(found.clientNames);
  if (!sameList(granted, clientNames)) fields.clientNames = { from: granted, to: clientNames };
  const rotate = planRotation(fields, spec.rotate, found.rotateLabel, r.adopting);
  if (rotate && found.activeSecrets >= MAX_ACTIVE_SECRETS)
    sink.problems.push({
      path: `${at}.rotate`,
      message: `application ${spec.name} has ${found.activeSecrets} active secrets; retire one (rpa apps retire-secret) before rotating`,
    });
  const item = {
    kind: 'application' as const,
    key: spec.name,
    id: found.id,
    fields,
    ...(rotate ? { rotate: true as const } : {}),
  };
  if (r.adopting) sink.adoptions.push(item);
  else if (Object.keys(fields).length > 0) sink.changes.push(item);
  const passkeys = c.passkeys.get(found.id) ?? [];
  const webhooks = c.webhooks.get(found.id) ?? [];
  for (const [i, p] of (spec.passkeys ?? []).entries()) planPasskey(c, `${at}.passkeys[${i}]`, p, passkeys);
  for (const [i, w] of (spec.webhooks ?? []).entries()) planWebhook(c, `${at}.webhooks[${i}]`, w, webhooks);
  return found;
}

function planPasskey(c: AppContext, at: string, spec: PasskeySpec, existing: readonly PasskeyState[]): void {
  const { sink, options } = c;
  const key = passkeyKey(c.spec.name, spec.name);
  const r = claim(
    existing.filter((p) => p.name === spec.name),
    c.stack,
    options.adopt,
  );
  if (r.problem) {
    sink.problems.push({ path: at, message: `passkey ${key} ${r.problem}` });
    return;
  }
  const rate = spec.rateLimitPerMinute ?? options.defaults.ratePerMinute;
  const quota = spec.quotaPerDay ?? options.defaults.quotaPerDay;
  const expiresAt = spec.expiresAt === undefined ? null : Date.parse(spec.expiresAt);
  if (Number.isNaN(expiresAt)) {
    // checkTenancyFile refuses it too; a plan of an unchecked file must not read it as "never".
    sink.problems.push({
      path: `${at}.expiresAt`,
      message: `not a time that can be read: ${spec.expiresAt}`,
    });
    return;
  }
  const future = () => {
    if (expiresAt !== null && expiresAt <= options.now)
      sink.problems.push({ path: `${at}.expiresAt`, message: 'must be a time in the future' });
  };
  const found = r.found;
  if (!found) {
    future();
    sink.creations.push({ kind: 'passkey', key });
    return;
  }
  if (found.api !== spec.api) {
    sink.problems.push({
      path: `${at}.api`,
      message: `passkey ${key} is for ${found.api}; an API cannot change: give the new passkey another name`,
    });
    return;
  }
  const fields: Record<string, FieldChange> = {};
  if (found.ratePerMinute !== rate) fields.rateLimitPerMinute = { from: found.ratePerMinute, to: rate };
  if (found.quotaPerDay !== quota) fields.quotaPerDay = { from: found.quotaPerDay, to: quota };
  if (found.expiresAt !== expiresAt) {
    future();
    fields.expiresAt = { from: isoOrNull(found.expiresAt), to: isoOrNull(expiresAt) };
  }
  const item = { kind: 'passkey' as const, key, id: found.id, fields };
  if (r.adopting) sink.adoptions.push(item);
  else if (Object.keys(fields).length > 0) sink.changes.push(item);
}

function planWebhook(c: AppContext, at: string, spec: WebhookSpec, existing: readonly WebhookState[]): void {
  const { sink, options } = c;
  const url = normalizedUrl(spec.url);
  const key = webhookKey(c.spec.name, url);
  const r = claim(
    existing.filter((w) => w.url === url),
    c.stack,
    options.adopt,
  );
  if (r.problem) {
    sink.problems.push({ path: at, message: `webhook ${key} ${r.problem}` });
    return;
  }
  const events = sorted(spec.events ?? WEBHOOK_EVENT_TYPES);
  const found = r.found;
  if (!found) {
    const refused = options.refuseUrl(spec.url);
    if (refused) sink.problems.push({ path: `${at}.url`, message: refused });
    sink.creations.push({ kind: 'webhook', key });
    return;
  }
  const fields: Record<string, FieldChange> = {};
  const current = sorted(found.events);
  if (!sameList(current, events)) fields.events = { from: current, to: events };
  const rotate = planRotation(fields, spec.rotate, found.rotateLabel, r.adopting);
  const item = {
    kind: 'webhook' as const,
    key,
    id: found.id,
    fields,
    ...(rotate ? { rotate: true as const } : {}),
  };
  if (r.adopting) sink.adoptions.push(item);
  else if (Object.keys(fields).length > 0) sink.changes.push(item);
}

/**
 * A `rotate:` label against the one recorded (docs/configuration-as-code.md): a different label is
 * a change of the field, and rotates the secret unless it is the first label or the object is being
 * adopted, when the secret in use is the one the operator already holds. Returns whether it rotates.
 */
function planRotation(
  fields: Record<string, FieldChange>,
  label: string | undefined,
  recorded: string | null,
  adopting: boolean | undefined,
): boolean {
  if (label === undefined || label === recorded) return false;
  fields.rotate = { from: recorded, to: label };
  return recorded !== null && !adopting;
}

const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));
