import type { Application } from '../../domain/application.js';
import { listApplications as selectApplications } from '../../store/repositories/applications.js';
import { listGrantedClients } from '../../store/repositories/clients.js';
import type { ServiceDeps } from '../deps.js';

/** Every application, oldest first, with the names of the client instances it may act for. */
export async function listApplications(
  deps: ServiceDeps,
): Promise<{ application: Application; clientNames: string[] }[]> {
  const db = deps.store.db;
  return Promise.all(
    (await selectApplications(db)).map(async (application) => ({
      application,
      clientNames: (await listGrantedClients(db, application.id)).map((c) => c.name),
    })),
  );
}
