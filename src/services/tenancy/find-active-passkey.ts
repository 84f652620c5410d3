import { hashCredential } from '../../domain/credentials.js';
import { isPasskeyUsable, type Passkey, type PasskeyApi } from '../../domain/passkey.js';
import { AppError } from '../../errors.js';
import type { Principal } from '../auth/create-token-verifier.js';
import type { ServiceDeps } from '../deps.js';
import { type MaybePromise, whenReady } from '../maybe-promise.js';

const inactive = (detail: string) =>
  new AppError('DEVELOPER_INACTIVE', { detail, source: { parameter: 'passkey' } });

/**
 * A call is served only when its passkey is active and not expired, belongs to the token's application and
 * environment, and was issued for the API being called (docs/design.md, Tenancy). Every mismatch gets
 * the same 403, so a caller learns nothing about other applications' keys. The passkey comes at
 * once when the cache holds it and it is accepted; otherwise a promise, which a refusal rejects.
 */
export function findActivePasskey(
  deps: ServiceDeps,
  input: { value: string; principal: Principal; api: PasskeyApi },
): MaybePromise<Passkey> {
  deps.cache.listen();
  // Cached in process; `rpa passkeys update` is announced, so limits apply from the next request.
  const passkey = deps.cache.passkeys.get(hashCredential(input.value));
  try {
    return whenReady(passkey, (p) => accepted(p, input, deps.clock()));
  } catch (err) {
    return Promise.reject(err);
  }
}

function accepted(
  passkey: Passkey | undefined,
  input: { principal: Principal; api: PasskeyApi },
  now: number,
): Passkey {
  const { principal, api } = input;
  // Expiry is checked against this request's clock: the cache may hold a passkey past its expiry.
  if (
    !passkey ||
    !isPasskeyUsable(passkey, now) ||
    passkey.applicationId !== principal.applicationId ||
    passkey.environment !== principal.environment
  ) {
    throw inactive('Developer Inactive: the passkey is unknown or inactive');
  }
  if (passkey.api !== api) throw inactive(`Developer Inactive: the passkey is not valid for the ${api} API`);
  return passkey;
}
