import { randomBytes, randomUUID } from 'node:crypto';
import {
  deleteRetiredSigningKeys,
  insertSigningKey,
  retireSigningKeys,
} from '../../store/repositories/token-signing-keys.js';
import { inTransaction } from '../../store/transaction.js';
import { recordAudit } from '../audit/record-audit.js';
import type { ServiceDeps } from '../deps.js';
import { announceTenancyChange } from '../tenancy/announce-tenancy-change.js';

/**
 * Adds a new token signing key (docs/design.md, Access tokens). Every instance signs with it once
 * it has learnt of it: at once through the announcement, otherwise within TOKEN_CACHE_TTL_MS. So
 * the older keys sign nothing after that, and each is retired when the last token it can have
 * signed has expired: TOKEN_CACHE_TTL_MS + TOKEN_TTL_SECONDS from now. `retirePrevious` retires
 * them at once instead (a leaked key): their tokens are refused from then on.
 */
export async function rotateSigningKey(
  deps: ServiceDeps,
  input: { retirePrevious?: boolean } = {},
): Promise<{ keyId: string; previousRetireAt: number }> {
  const now = deps.clock();
  const keyId = randomUUID();
  const previousRetireAt = input.retirePrevious
    ? now
    : now + deps.config.tokenCacheTtlMs + deps.config.tokenTtlSeconds * 1000;
  await inTransaction(deps.store.db, async (trx) => {
    await insertSigningKey(trx, {
      id: keyId,
      key_material: randomBytes(32).toString('base64url'),
      created_at: now,
      retire_at: null,
    });
    await retireSigningKeys(trx, keyId, previousRetireAt);
    await deleteRetiredSigningKeys(trx, now - 1);
    await recordAudit(trx, deps, {
      action: 'signing_key.rotated',
      targetType: 'signing_key',
      targetId: keyId,
      details: { previousKeysRetireAt: previousRetireAt, retirePrevious: input.retirePrevious === true },
    });
  });
  await announceTenancyChange(deps, { signingKeys: true });
  return { keyId, previousRetireAt };
}
