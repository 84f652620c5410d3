import type { Kysely } from 'kysely';
import type { PlanItem } from '../../domain/plan-items.js';
import type { TenancyFile } from '../../domain/tenancy-file.js';
import type { ComputedTenancyPlan } from '../../domain/tenancy-plan.js';
import type { TenancyState, WebhookState } from '../../domain/tenancy-state.js';
import type { Database } from '../../store/schema.js';
import type { AuditEntry } from '../audit/record-audit.js';
import type { ServiceDeps } from '../deps.js';
import type { TenancyChange } from '../tenancy/announce-tenancy-change.js';

/**
 * The secrets an apply created, the only place they are ever shown: client secrets of new and
 * rotated applications, passkeys by `<application>/<passkey>`, signing secrets by `<application> <url>`.
 */
export interface ConfigSecrets {
  readonly applications: Record<string, { readonly clientId: string; readonly clientSecret: string }>;
  readonly passkeys: Record<string, string>;
  readonly webhooks: Record<string, string>;
}

/** What the steps of one apply share, in its transaction. */
export interface ApplyContext {
  readonly deps: ServiceDeps;
  readonly trx: Kysely<Database>;
  readonly file: TenancyFile;
  readonly plan: ComputedTenancyPlan;
  readonly state: TenancyState;
  readonly now: number;
  /** New webhook URLs as checked before the transaction (services/webhooks/check-webhook-url.ts). */
  readonly urls: ReadonlyMap<string, URL>;
  /** Names of clients and applications to their ids, the new ones added as they are written. */
  readonly clientIds: Map<string, string>;
  readonly applicationIds: Map<string, string>;
  /** The state's endpoints by id: the plan names them by id. */
  readonly endpoints: ReadonlyMap<string, WebhookState>;
  readonly secrets: ConfigSecrets;
  readonly audit: AuditEntry[];
  readonly changes: TenancyChange[];
  /** What every audit entry of the apply carries: which apply, of which stack, where. */
  readonly stamp: { readonly applyId: string; readonly stack: string; readonly environment: string };
}

export function newApplyContext(
  base: Omit<ApplyContext, 'clientIds' | 'applicationIds' | 'endpoints' | 'secrets' | 'audit' | 'changes'>,
): ApplyContext {
  return {
    ...base,
    clientIds: new Map(base.state.clients.map((c) => [c.name, c.id])),
    applicationIds: new Map(base.plan.applicationIds),
    endpoints: new Map(base.state.webhooks.map((w) => [w.id, w])),
    secrets: { applications: {}, passkeys: {}, webhooks: {} },
    audit: [],
    changes: [],
  };
}

/** The plan's items of one kind among `items`. */
export const itemsOf = (items: readonly PlanItem[], kind: PlanItem['kind']) =>
  items.filter((i) => i.kind === kind);

function found<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`no ${what} in this apply`);
  return value;
}

/** The id a plan item's application has, created or existing. */
export const applicationIdOf = (ctx: ApplyContext, name: string): string =>
  found(ctx.applicationIds.get(name), `application ${name}`);

/** The id a named client has, created or existing. */
export const clientIdOf = (ctx: ApplyContext, name: string): string =>
  found(ctx.clientIds.get(name), `client ${name}`);

/** An endpoint the plan names, as the state it was planned on holds it. */
export const endpointOf = (ctx: ApplyContext, id: string): WebhookState =>
  found(ctx.endpoints.get(id), `endpoint ${id}`);
