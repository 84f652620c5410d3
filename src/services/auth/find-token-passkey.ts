import { hashCredential } from '../../domain/credentials.js';
import type { Passkey } from '../../domain/passkey.js';
import { AppError } from '../../errors.js';
import type { ServiceDeps } from '../deps.js';
import type { AuthenticatedClient } from './authenticate-client.js';

/**
 * docs/interface.md §5.5: token calls count against a passkey. `?passkey=` names it (any API, but it must be
 * an active passkey of the authenticated application, hence of its environment); otherwise the
 * application's default passkey is charged. An application without any passkey has nothing to
 * charge and still gets tokens: it cannot call the APIs without one anyway.
 */
export async function findTokenPasskey(
  deps: ServiceDeps,
  input: { client: AuthenticatedClient; passkey?: string | undefined },
): Promise<Passkey | null> {
  const { application } = input.client;
  deps.cache.listen();
  if (input.passkey === undefined) return (await deps.cache.defaultPasskeys.get(application.id)) ?? null;
  return namedPasskey(input.client, await deps.cache.passkeys.get(hashCredential(input.passkey)));
}

/**
 * findTokenPasskey answered from the cache without loading: `{ passkey }`, or undefined when it
 * must be loaded. Refuses (throws) as findTokenPasskey does.
 */
export function findTokenPasskeyHeld(
  deps: ServiceDeps,
  input: { client: AuthenticatedClient; passkey?: string | undefined },
): { readonly passkey: Passkey | null } | undefined {
  deps.cache.listen();
  if (input.passkey === undefined) {
    const held = deps.cache.defaultPasskeys.peek(input.client.application.id);
    return held && { passkey: held.value ?? null };
  }
  const held = deps.cache.passkeys.peek(hashCredential(input.passkey));
  return held && { passkey: namedPasskey(input.client, held.value) };
}

/** The passkey a token call names, if it may be charged for it. */
function namedPasskey(client: AuthenticatedClient, passkey: Passkey | undefined): Passkey {
  const { application } = client;
  if (
    passkey?.status !== 'active' ||
    passkey.applicationId !== application.id ||
    passkey.environment !== application.environment
  ) {
    // RFC 6749 §5.2 invalid_request: "includes an unsupported parameter value".
    throw new AppError('INVALID_QUERY_PARAMETER', {
      field: 'passkey',
      detail: 'the passkey is unknown, inactive or not issued to this application',
      source: { parameter: 'passkey' },
    });
  }
  return passkey;
}
