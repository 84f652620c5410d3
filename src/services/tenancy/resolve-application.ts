import type { Application } from '../../domain/application.js';
import { CREDENTIAL_PREFIX, mentionsSecretCredential } from '../../domain/credentials.js';
import type { Environment } from '../../domain/environment.js';
import { AppError } from '../../errors.js';
import { findApplicationByClientId, findApplicationById } from '../../store/repositories/applications.js';
import type { ServiceDeps } from '../deps.js';

export const SECRET_NOT_APPLICATION =
  'that is a secret (a client secret, passkey value or token), not an application id or client id; `rpa apps list` shows both';

/**
 * The application an operator names, by its id or by its client id: both are printed when it is
 * created, and the client id is the one that appears in a partner's own configuration. A secret
 * put in their place is refused without being repeated, since the refusal may be logged.
 */
export async function resolveApplication(
  deps: ServiceDeps,
  reference: string,
  environment?: Environment,
): Promise<Application> {
  if (mentionsSecretCredential(reference))
    throw new AppError('INVALID_REQUEST', { field: 'app', detail: SECRET_NOT_APPLICATION });
  const app = reference.startsWith(CREDENTIAL_PREFIX.clientId)
    ? await findApplicationByClientId(deps.store.db, reference)
    : await findApplicationById(deps.store.db, reference);
  // One environment's operations never reach into the other's (docs/operations.md, Admin API).
  if (!app || (environment !== undefined && app.environment !== environment))
    throw new AppError('NOT_FOUND', {
      field: 'app',
      detail: `no application with the id or client id ${JSON.stringify(reference.slice(0, 100))}${environment ? ` in ${environment}` : ''}`,
    });
  return app;
}
