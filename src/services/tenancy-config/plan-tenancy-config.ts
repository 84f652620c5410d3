import type { Kysely } from 'kysely';
import type { Environment } from '../../domain/environment.js';
import type { PlanOptions } from '../../domain/plan-items.js';
import { checkTenancyFile, type TenancyFile } from '../../domain/tenancy-file.js';
import { type ComputedTenancyPlan, planTenancy, type TenancyPlan } from '../../domain/tenancy-plan.js';
import type { TenancyState } from '../../domain/tenancy-state.js';
import { parseWebhookUrl } from '../../domain/webhook-url.js';
import { AppError } from '../../errors.js';
import { readTenancyState } from '../../store/repositories/tenancy-state.js';
import type { Database } from '../../store/schema.js';
import type { ServiceDeps } from '../deps.js';

/** What a plan or an apply is asked for: a file (its shape already checked) and how to treat it. */
export interface TenancyConfigInput {
  readonly environment: Environment;
  readonly file: TenancyFile;
  /** Revoke this stack's objects the file no longer names. */
  readonly prune: boolean;
  /** Claim same-named objects no stack manages. */
  readonly adopt: boolean;
  /** The most revocations a prune may make; more refuse the whole plan. */
  readonly maxDeletes: number;
}

/** Deletions a prune makes at most unless told otherwise. */
export const DEFAULT_MAX_DELETES = 10;

/**
 * The plan of a configuration file against its environment now: what an apply would create,
 * change, adopt and revoke, at the environment's tenancy revision. Reads only; shows no secret.
 */
export async function planTenancyConfig(deps: ServiceDeps, input: TenancyConfigInput): Promise<TenancyPlan> {
  return (await planAgainst(deps, deps.store.db, input)).plan;
}

/** The plan and the state it was computed from, read through `db` (a transaction, in an apply). */
export async function planAgainst(
  deps: ServiceDeps,
  db: Kysely<Database>,
  input: TenancyConfigInput,
): Promise<{ plan: ComputedTenancyPlan; state: TenancyState }> {
  const state = await readTenancyState(db, input.environment);
  const plan = planTenancy(input.file, state, planOptions(deps, input));
  const fileProblems = checkTenancyFile(input.file);
  if (fileProblems.length === 0) return { plan, state };
  // The plan finds some of them too (an expiry it cannot read): each is named once.
  const named = new Set(fileProblems.map((p) => `${p.path}: ${p.message}`));
  const more = plan.problems.filter((p) => !named.has(`${p.path}: ${p.message}`));
  return { plan: { ...plan, problems: [...fileProblems, ...more] }, state };
}

function planOptions(deps: ServiceDeps, input: TenancyConfigInput): PlanOptions {
  return {
    prune: input.prune,
    adopt: input.adopt,
    maxDeletes: input.maxDeletes,
    now: deps.clock(),
    defaults: {
      ratePerMinute: deps.config.defaultRateLimitPerMinute,
      quotaPerDay: deps.config.defaultQuotaPerDay,
    },
    refuseUrl(url) {
      try {
        parseWebhookUrl(url, deps.config.webhooks);
        return null;
      } catch (err) {
        if (err instanceof AppError) return err.detail ?? err.message;
        throw err;
      }
    },
  };
}
