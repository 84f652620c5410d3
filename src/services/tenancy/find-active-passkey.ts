import { hashCredential } from '../../domain/credentials.js';
import type { Passkey, PasskeyApi } from '../../domain/passkey.js';
import { AppError } from '../../errors.js';
import type { Principal } from '../auth/create-token-verifier.js';
import type { ServiceDeps } from '../deps.js';

const inactive = (detail: string) =>
  new AppError('DEVELOPER_INACTIVE', { detail, source: { parameter: 'passkey' } });

/**
 * A call is served only when its passkey is active, belongs to the token's application and
 * environment, and was issued for the API being called (docs/design.md, Tenancy). Every mismatch gets
 * the same 403, so a caller learns nothing about other applications' keys.
 */
export async function findActivePasskey(
  deps: ServiceDeps,
  input: { value: string; principal: Principal; api: PasskeyApi },
): Promise<Passkey> {
  const { value, principal, api } = input;
  deps.cache.listen();
  // Cached in process; `rpa passkeys update` is announced, so limits apply from the next request.
  const passkey = await deps.cache.passkeys.get(hashCredential(value));
  if (!activeFor(passkey, principal))
    throw inactive('Developer Inactive: the passkey is unknown or inactive');
  if (passkey.api !== api) throw inactive(`Developer Inactive: the passkey is not valid for the ${api} API`);
  return passkey;
}

/**
 * findActivePasskey answered from the cache without loading: the passkey, or undefined when it
 * must be loaded or is refused (findActivePasskey then says why).
 */
export function findActivePasskeyHeld(
  deps: ServiceDeps,
  input: { value: string; principal: Principal; api: PasskeyApi },
): Passkey | undefined {
  deps.cache.listen();
  const passkey = deps.cache.passkeys.peek(hashCredential(input.value))?.value;
  return activeFor(passkey, input.principal) && passkey.api === input.api ? passkey : undefined;
}

function activeFor(passkey: Passkey | undefined, principal: Principal): passkey is Passkey {
  return (
    passkey?.status === 'active' &&
    passkey.applicationId === principal.applicationId &&
    passkey.environment === principal.environment
  );
}
