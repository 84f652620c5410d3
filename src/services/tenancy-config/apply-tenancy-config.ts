import { randomUUID } from 'node:crypto';
import { describeProblem, normalizedUrl, webhookKey } from '../../domain/tenancy-file.js';
import type { TenancyPlan } from '../../domain/tenancy-plan.js';
import { AppError } from '../../errors.js';
import { claimTenancyRevision, readTenancyRevision } from '../../store/repositories/tenancy-revisions.js';
import { inTransaction } from '../../store/transaction.js';
import { recordAudit } from '../audit/record-audit.js';
import type { ServiceDeps } from '../deps.js';
import { announceTenancyChange, type TenancyChange } from '../tenancy/announce-tenancy-change.js';
import { checkWebhookUrl } from '../webhooks/check-webhook-url.js';
import { type ConfigSecrets, newApplyContext } from './apply-context.js';
import { planAgainst, type TenancyConfigInput } from './plan-tenancy-config.js';
import { writeAdoptions, writeChanges, writeRevocations } from './write-changes.js';
import { writeCreations } from './write-creations.js';

export interface TenancyApplyResult {
  /** The plan applied, at the revision it was computed at. */
  readonly plan: TenancyPlan;
  /** Named by every audit entry of the apply. */
  readonly applyId: string;
  /** What the apply created and will never show again. */
  readonly secrets: ConfigSecrets;
}

const revisionChanged = (expected: number, now: number) =>
  new AppError('TENANCY_REVISION_CHANGED', {
    detail: `the tenancy changed since the plan (revision ${expected}, now ${now}); plan again`,
    extensions: { revision: now },
  });

/** Refuses a plan with problems, naming each (conflicts, too many deletions, an invalid file). */
function refusePlanProblems(plan: TenancyPlan): void {
  if (plan.problems.length === 0) return;
  throw new AppError('TENANCY_PLAN_REFUSED', {
    detail: plan.problems.map(describeProblem).join('; '),
    extensions: { problems: plan.problems },
  });
}

/**
 * Applies a configuration file's plan, computed at `revision`, in one transaction: all of it or
 * nothing. A change of the environment's tenancy since (another apply, `rpa apps revoke`) refuses
 * it, as do conflicts. Revocations come first, then creations in dependency order (clients,
 * applications with their grants, passkeys, endpoints), then changes; every step is audited with
 * the apply's id and actor; caches are told after the commit.
 */
export async function applyTenancyConfig(
  deps: ServiceDeps,
  input: TenancyConfigInput & { readonly revision: number },
): Promise<TenancyApplyResult> {
  const before = (await planAgainst(deps, deps.store.db, input)).plan;
  if (before.revision !== input.revision) throw revisionChanged(input.revision, before.revision);
  refusePlanProblems(before);
  const urls = await checkNewUrls(deps, input, before);
  const applyId = randomUUID();
  const now = deps.clock();
  const stamp = { applyId, stack: input.file.stack, environment: input.environment };
  const applied = await inTransaction(deps.store.db, async (trx) => {
    if (!(await claimTenancyRevision(trx, input.environment, input.revision)))
      throw revisionChanged(input.revision, await readTenancyRevision(trx, input.environment));
    // Under the claimed revision the environment is what the plan saw, so this is that plan.
    const { plan, state } = await planAgainst(deps, trx, input);
    refusePlanProblems(plan);
    const ctx = newApplyContext({ deps, trx, file: input.file, plan, state, now, urls, stamp });
    await writeRevocations(ctx);
    await writeAdoptions(ctx);
    await writeCreations(ctx);
    await writeChanges(ctx);
    await recordAudit(trx, deps, ...ctx.audit);
    return ctx;
  });
  for (const change of distinct(applied.changes)) await announceTenancyChange(deps, change);
  deps.logger.info(
    {
      applyId,
      environment: input.environment,
      stack: input.file.stack,
      created: applied.plan.creations.length,
      changed: applied.plan.changes.length,
      adopted: applied.plan.adoptions.length,
      revoked: applied.plan.revocations.length,
    },
    'tenancy configuration applied',
  );
  return { plan: before, applyId, secrets: applied.secrets };
}

/**
 * The URLs of the endpoints the plan creates, checked now (a name resolving to a private address
 * is refused): the DNS lookup holds no transaction open.
 */
async function checkNewUrls(
  deps: ServiceDeps,
  input: TenancyConfigInput,
  plan: TenancyPlan,
): Promise<Map<string, URL>> {
  const created = new Set(plan.creations.filter((c) => c.kind === 'webhook').map((c) => c.key));
  const urls = new Map<string, URL>();
  for (const app of input.file.applications ?? [])
    for (const w of app.webhooks ?? [])
      if (created.has(webhookKey(app.name, normalizedUrl(w.url))))
        urls.set(w.url, await checkWebhookUrl(deps, w.url));
  return urls;
}

function distinct(changes: readonly TenancyChange[]): TenancyChange[] {
  const seen = new Map<string, TenancyChange>();
  for (const c of changes) seen.set(JSON.stringify(c), c);
  return [...seen.values()];
}
