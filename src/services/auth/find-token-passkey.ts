import { hashCredential } from '../../domain/credentials.js';
import { isPasskeyUsable, type Passkey } from '../../domain/passkey.js';
import { AppError } from '../../errors.js';
import { findDefaultPasskey } from '../../store/repositories/passkeys.js';
import type { ServiceDeps } from '../deps.js';
import { type MaybePromise, whenReady } from '../maybe-promise.js';
import type { AuthenticatedClient } from './authenticate-client.js';

/**
 * docs/interface.md §5.5: token calls count against a passkey. `?passkey=` names it (any API, but it must be
 * an active passkey of the authenticated application, hence of its environment); otherwise the
 * application's default passkey is charged. An application without any passkey has nothing to
 * charge and still gets tokens: it cannot call the APIs without one anyway.
 *
 * Answered at once when the cache holds the passkey, refusals thrown then; otherwise a promise.
 */
export function findTokenPasskey(
  deps: ServiceDeps,
  input: { client: AuthenticatedClient; passkey?: string | undefined },
): MaybePromise<Passkey | null> {
  const { client } = input;
  deps.cache.listen();
  if (input.passkey === undefined) return defaultPasskey(deps, client.application.id);
  const found = deps.cache.passkeys.get(hashCredential(input.passkey));
  return whenReady(found, (p) => namedPasskey(client, p, deps.clock()));
}

/**
 * The default passkey, loaded as usable and held in the cache only until it expires: an expired
 * one gives way, as a revoked one does, to the next usable passkey. One that expired while it was
 * being loaded (or while a load it joined was) is looked up again in the database itself.
 */
function defaultPasskey(deps: ServiceDeps, applicationId: string): MaybePromise<Passkey | null> {
  const usable = (p: Passkey | undefined) => (p && isPasskeyUsable(p, deps.clock()) ? p : null);
  return whenReady(deps.cache.defaultPasskeys.get(applicationId), (p) =>
    !p || usable(p)
      ? (p ?? null)
      : findDefaultPasskey(deps.store.db, applicationId, deps.clock()).then(usable),
  );
}

/** The passkey a token call names, if it may be charged for it at `now`. */
function namedPasskey(client: AuthenticatedClient, passkey: Passkey | undefined, now: number): Passkey {
  const { application } = client;
  if (
    !passkey ||
    !isPasskeyUsable(passkey, now) ||
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
