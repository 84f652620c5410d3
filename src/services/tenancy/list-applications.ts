import type { Application } from '../../domain/application.js';
import type { Environment } from '../../domain/environment.js';
import { listActiveSecrets, pageApplications } from '../../store/repositories/applications.js';
import { listGrantedClients } from '../../store/repositories/clients.js';
import type { ServiceDeps } from '../deps.js';
import { type Page, type PageRequest, readPage } from '../paging/read-page.js';

export interface ApplicationListing {
  readonly application: Application;
  readonly clientNames: string[];
  readonly secretIds: string[];
}

/**
 * One environment's applications, oldest first, a page at a time, with the names of the client
 * instances each may act for and the ids of its active secrets (what retiring one takes; the
 * secrets themselves are not kept).
 */
export async function listApplications(
  deps: ServiceDeps,
  input: { environment: Environment } & PageRequest,
): Promise<Page<ApplicationListing>> {
  const db = deps.store.db;
  const page = await readPage(
    input,
    (after, limit) => pageApplications(db, input.environment, after, limit),
    (a) => ({ at: a.createdAt, id: a.id }),
  );
  return { ...page, items: await Promise.all(page.items.map((a) => describeApplication(deps, a))) };
}

/** An application with its grants and active secret ids. */
export async function describeApplication(
  deps: ServiceDeps,
  application: Application,
): Promise<ApplicationListing> {
  const db = deps.store.db;
  return {
    application,
    clientNames: (await listGrantedClients(db, application.id)).map((c) => c.name),
    secretIds: (await listActiveSecrets(db, application.id)).map((s) => s.id),
  };
}
