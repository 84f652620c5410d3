import type { Client } from '../../domain/client.js';
import type { Environment } from '../../domain/environment.js';
import { pageClients } from '../../store/repositories/clients.js';
import type { ServiceDeps } from '../deps.js';
import { type Page, type PageRequest, readPage } from '../paging/read-page.js';

/** One environment's client instances, oldest first, a page at a time. */
export function listClients(
  deps: ServiceDeps,
  input: { environment: Environment } & PageRequest,
): Promise<Page<Client>> {
  return readPage(
    input,
    (after, limit) => pageClients(deps.store.db, input.environment, after, limit),
    (c) => ({ at: c.createdAt, id: c.id }),
  );
}
