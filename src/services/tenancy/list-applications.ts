import type { Application } from '../../domain/application.js';
import {
  listActiveSecrets,
  listApplications as selectApplications,
} from '../../store/repositories/applications.js';
import { listGrantedClients } from '../../store/repositories/clients.js';
import type { ServiceDeps } from '../deps.js';

/**
 * Every application, oldest first, with the names of the client instances it may act for and the
 * ids of its active secrets (what `retire-secret --secret` takes; the secrets themselves are not kept).
 */
export async function listApplications(
  deps: ServiceDeps,
): Promise<{ application: Application; clientNames: string[]; secretIds: string[] }[]> {
  const db = deps.store.db;
  return Promise.all(
    (await selectApplications(db)).map(async (application) => ({
      application,
      clientNames: (await listGrantedClients(db, application.id)).map((c) => c.name),
      secretIds: (await listActiveSecrets(db, application.id)).map((s) => s.id),
    })),
  );
}
