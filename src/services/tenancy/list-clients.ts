import type { Client } from '../../domain/client.js';
import type { Environment } from '../../domain/environment.js';
import { listClients as selectClients } from '../../store/repositories/clients.js';
import type { ServiceDeps } from '../deps.js';

/** Client instances by environment and name; one environment when named. */
export async function listClients(
  deps: ServiceDeps,
  input: { environment?: Environment },
): Promise<Client[]> {
  return selectClients(deps.store.db, input.environment);
}
