import { randomUUID } from 'node:crypto';
import type { Application } from '../../domain/application.js';
import { generateCredential, hashCredential } from '../../domain/credentials.js';
import type { Environment } from '../../domain/environment.js';
import { AppError } from '../../errors.js';
import { insertApplication, insertSecret } from '../../store/repositories/applications.js';
import { findClientsByNames, insertGrants } from '../../store/repositories/clients.js';
import { inTransaction } from '../../store/transaction.js';
import { recordAudit } from '../audit/record-audit.js';
import type { ServiceDeps } from '../deps.js';

export interface CreatedApplication {
  readonly application: Application;
  readonly clientNames: readonly string[];
  /** Shown once; only its hash is stored. */
  readonly clientSecret: string;
}

export async function createApplication(
  deps: ServiceDeps,
  input: { environment: Environment; name: string; clientNames: readonly string[] },
): Promise<CreatedApplication> {
  const name = input.name.trim();
  if (!name || name.length > 200) {
    throw new AppError('INVALID_PROPERTY_VALUE', {
      field: 'name',
      detail: 'an application name is 1-200 characters',
    });
  }
  const wanted = [...new Set(input.clientNames)];
  const now = deps.clock();
  const clientSecret = generateCredential('clientSecret');
  const secretId = randomUUID();
  const application: Application = {
    id: randomUUID(),
    environment: input.environment,
    clientId: generateCredential('clientId'),
    name,
    status: 'active',
    createdAt: now,
    revokedAt: null,
  };
  await inTransaction(deps.store.db, async (trx) => {
    const clients = await findClientsByNames(trx, input.environment, wanted);
    const missing = wanted.filter((n) => !clients.some((c) => c.name === n));
    if (missing.length > 0) {
      throw new AppError('UNKNOWN_CLIENT_NAME', {
        field: 'clientNames',
        detail: `no client named ${missing.map((m) => `"${m}"`).join(', ')} in ${input.environment}`,
      });
    }
    await insertApplication(trx, application);
    await insertSecret(trx, {
      id: secretId,
      applicationId: application.id,
      secretHash: hashCredential(clientSecret),
      createdAt: now,
    });
    await insertGrants(
      trx,
      application.id,
      clients.map((c) => c.id),
    );
    await recordAudit(trx, deps, {
      action: 'application.created',
      targetType: 'application',
      targetId: application.id,
      details: {
        environment: application.environment,
        clientId: application.clientId,
        name,
        secretId,
        clientNames: wanted.toSorted(),
      },
    });
  });
  return { application, clientNames: wanted.sort(), clientSecret };
}
