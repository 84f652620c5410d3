import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { ServiceDeps } from '../../services/deps.js';
import type { AdminRouteOptions } from './admin-operation.js';
import { passkeyAdminHandlers } from './passkey-admin-handlers.js';
import { passkeyOperations as p } from './passkey-admin-operations.js';

/** Passkeys of applications: limits, expiry, revocation. */
export function registerPasskeyAdminRoutes(
  plugin: FastifyInstance,
  route: AdminRouteOptions,
  deps: ServiceDeps,
): void {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const passkeys = passkeyAdminHandlers(deps);
  app.get('/:environment/passkeys', route(p.listPasskeys), passkeys.listPasskeys);
  app.post('/:environment/applications/:app/passkeys', route(p.createPasskey), passkeys.createPasskey);
  app.get('/:environment/passkeys/:id', route(p.getPasskey), passkeys.getPasskey);
  app.patch('/:environment/passkeys/:id', route(p.updatePasskey), passkeys.updatePasskey);
  app.post('/:environment/passkeys/:id/revoke', route(p.revokePasskey), passkeys.revokePasskey);
}
