import type { Kysely } from 'kysely';
import type { PlanItem } from '../../domain/plan-items.js';
import type { TenancyFile } from '../../domain/tenancy-file.js';
import type { ComputedTenancyPlan } from '../../domain/tenancy-plan.js';
import type { TenancyState } from '../../domain/tenancy-state.js';
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
  readonly secrets: ConfigSecrets;
  readonly audit: AuditEntry[];
  readonly changes: TenancyChange[];
  /** What every audit entry of the apply carries: which apply, of which stack, where. */
  readonly stamp: { readonly applyId: string; readonly stack: string; readonly environment: string };
}

export function newApplyContext(
  base: Omit<ApplyContext, 'clientIds' | 'applicationIds' | 'secrets' | 'audit' | 'changes'>,
): ApplyContext {
  return {
    ...base,
    clientIds: new Map(base.state.clients.map((c) => [c.name, c.id])),
    applicationIds: new Map(base.plan.applicationIds),
    secrets: { applications: {}, passkeys: {}, webhooks: {} },
    audit: [],
    changes: [],
  };
}

/** The plan's items of one kind among `items`. */
export const itemsOf = (items: readonly PlanItem[], kind: PlanItem['kind']) =>
  items.filter((i) => i.kind === kind);

/** The id a plan item's application has, created or existing. */
export function applicationIdOf(ctx: ApplyContext, name: string): string {
  const id = ctx.applicationIds.get(name);
  if (!id) throw new Error(`no application ${name} in this apply`);
  return id;
}
