import type { Passkey } from '../../domain/passkey.js';
import type { MaybePromise } from '../maybe-promise.js';
import {
  type Lease,
  type LimiterContext,
  leaseMatches,
  newLease,
  type RenewalOutcome,
  rollPeriod,
  windowsEnd,
} from './lease.js';
import {
  admission,
  type Described,
  describe,
  type LimitDecision,
  outageDecision,
  refusal,
} from './limit-decision.js';
import { renewLease, startRenewal } from './renew-lease.js';

/** Admits one call from the allowance the lease holds, if it holds any that counts now. */
function spend(
  ctx: LimiterContext,
  lease: Lease,
  passkey: Passkey,
  now: number,
  described: Described,
): LimitDecision | undefined {
  if (!leaseMatches(lease, passkey) || lease.unspent <= 0) return undefined;
  if (now >= windowsEnd(lease) || now >= lease.leasedAt + ctx.leaseMs) return undefined;
  lease.unspent -= 1;
  rollPeriod(lease, now, ctx.leaseMs);
  lease.spentInPeriod += 1;
  return admission(lease, described, now);
}

/**
 * Charges one call to the passkey: at once from the allowance this instance holds, when no
 * renewal is under way and the numbers are those it was leased under; otherwise once the store
 * has been asked (docs/architecture.md, Conventions: a hot step finishes within its turn).
 */
export function consumeAllowance(ctx: LimiterContext, passkey: Passkey): MaybePromise<LimitDecision> {
  const described = describe(passkey);
  const lease = ctx.leases.get(passkey.id);
  const admitted = lease && !lease.renewal ? spend(ctx, lease, passkey, ctx.clock(), described) : undefined;
  return admitted ?? consumeFromStore(ctx, passkey, described);
}

/** Waits for the passkey's renewal under way, or starts one, until the call is decided. */
async function consumeFromStore(
  ctx: LimiterContext,
  passkey: Passkey,
  described: Described,
): Promise<LimitDecision> {
  let waitedOn: RenewalOutcome | null = null;
  for (;;) {
    const now = ctx.clock();
    let lease = ctx.leases.get(passkey.id);
    if (!lease) {
      lease = newLease(now);
      ctx.leases.set(passkey.id, lease);
    }
    if (lease.renewal) {
      lease.waiting += 1;
      try {
        waitedOn = await lease.renewal.done;
      } finally {
        lease.waiting -= 1;
      }
      continue;
    }
    const admitted = spend(ctx, lease, passkey, now, described);
    if (admitted) return admitted;
    if (waitedOn) {
      // The store call this call waited on (its own or another's) left nothing for it.
      if (waitedOn.kind === 'unavailable') {
        ctx.reportOutage(waitedOn.error);
        return outageDecision(ctx.failMode, waitedOn.error, described.policyField);
      }
      if (waitedOn.kind === 'failed') throw waitedOn.error;
      if (waitedOn.kind === 'exhausted' && leaseMatches(lease, passkey))
        return refusal(lease, described, now);
    }
    const held = lease;
    // The loop then spends what the renewal brought, if anything.
    waitedOn = await startRenewal(ctx, held, () => renewLease(ctx, passkey, held, now)).done;
  }
}
