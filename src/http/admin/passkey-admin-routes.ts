import type { ServiceDeps } from '../../services/deps.js';
import { type RouteRow, route } from '../route-table.js';
import type { AdminOperation } from './admin-operation.js';
import { passkeyAdminHandlers } from './passkey-admin-handlers.js';
import { passkeyOperations as p } from './passkey-admin-operations.js';

/** Passkeys of applications: limits, expiry, revocation. */
export function passkeyAdminRoutes(deps: ServiceDeps): RouteRow<AdminOperation>[] {
  const passkeys = passkeyAdminHandlers(deps);
  // biome-ignore format: a route table, one route per line
  return [
    route('GET',   '/:environment/passkeys',                  p.listPasskeys,  {}, passkeys.listPasskeys),
    route('POST',  '/:environment/applications/:app/passkeys', p.createPasskey, {}, passkeys.createPasskey),
    route('GET',   '/:environment/passkeys/:id',              p.getPasskey,    {}, passkeys.getPasskey),
    route('PATCH', '/:environment/passkeys/:id',              p.updatePasskey, {}, passkeys.updatePasskey),
    route('POST',  '/:environment/passkeys/:id/revoke',       p.revokePasskey, {}, passkeys.revokePasskey),
  ];
}
