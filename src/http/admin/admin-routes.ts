import type { ServiceDeps } from '../../services/deps.js';
import { type RouteRow, route } from '../route-table.js';
import type { AdminOperation } from './admin-operation.js';
import { configAdminHandlers } from './config-admin-handlers.js';
import { configOperations as c } from './config-admin-operations.js';
import { oversightAdminHandlers } from './oversight-admin-handlers.js';
import { oversightOperations as o } from './oversight-admin-operations.js';
import { passkeyAdminHandlers } from './passkey-admin-handlers.js';
import { passkeyOperations as p } from './passkey-admin-operations.js';
import { tenancyAdminHandlers } from './tenancy-admin-handlers.js';
import { tenancyOperations as t } from './tenancy-admin-operations.js';
import { webhookAdminHandlers } from './webhook-admin-handlers.js';
import { webhookOperations as w } from './webhook-admin-operations.js';

/** The largest configuration file a plan or an apply takes (docs/configuration-as-code.md). */
const CONFIG_FILE_BODY_LIMIT = 32 * 1024 * 1024;

/**
 * The admin API's routes under /admin/v1 (docs/operations.md, Admin API), in the order of its
 * OpenAPI document, an area at a time: each operation's scope, request parts and answers are in
 * its *-admin-operations.ts, its handler in *-admin-handlers.ts. The signing keys and the audit
 * trail serve both environments, so their paths name none.
 */
export function adminRoutes(deps: ServiceDeps): RouteRow<AdminOperation>[] {
  const tenancy = tenancyAdminHandlers(deps);
  const passkeys = passkeyAdminHandlers(deps);
  const webhooks = webhookAdminHandlers(deps);
  const oversight = oversightAdminHandlers(deps);
  const config = configAdminHandlers(deps);
  // A configuration file is sent whole: 2,500 partners with 10,000 passkeys are about 1.7 MB.
  const whole = { bodyLimit: Math.max(CONFIG_FILE_BODY_LIMIT, deps.config.bodyLimitBytes) };
  // biome-ignore format: a route table, one route per line
  return [
    route('GET',    '/:environment/clients',                             t.listClients,             {}, tenancy.listClients),
    route('POST',   '/:environment/clients',                             t.createClient,            {}, tenancy.createClient),
    route('GET',    '/:environment/applications',                        t.listApplications,        {}, tenancy.listApplications),
    route('POST',   '/:environment/applications',                        t.createApplication,       {}, tenancy.createApplication),
    route('GET',    '/:environment/applications/:app',                   t.getApplication,          {}, tenancy.getApplication),
    route('POST',   '/:environment/applications/:app/secrets',           t.rotateApplicationSecret, {}, tenancy.rotateApplicationSecret),
    route('POST',   '/:environment/applications/:app/retire-secret',     t.retireApplicationSecret, {}, tenancy.retireApplicationSecret),
    route('POST',   '/:environment/applications/:app/revoke',            t.revokeApplication,       {}, tenancy.revokeApplication),

    route('GET',    '/:environment/passkeys',                            p.listPasskeys,            {}, passkeys.listPasskeys),
    route('POST',   '/:environment/applications/:app/passkeys',          p.createPasskey,           {}, passkeys.createPasskey),
    route('GET',    '/:environment/passkeys/:id',                        p.getPasskey,              {}, passkeys.getPasskey),
    route('PATCH',  '/:environment/passkeys/:id',                        p.updatePasskey,           {}, passkeys.updatePasskey),
    route('POST',   '/:environment/passkeys/:id/revoke',                 p.revokePasskey,           {}, passkeys.revokePasskey),

    route('GET',    '/:environment/webhook-endpoints',                   w.listWebhookEndpoints,    {}, webhooks.listWebhookEndpoints),
    route('POST',   '/:environment/webhook-endpoints',                   w.addWebhookEndpoint,      {}, webhooks.addWebhookEndpoint),
    route('GET',    '/:environment/webhook-endpoints/:id',               w.getWebhookEndpoint,      {}, webhooks.getWebhookEndpoint),
    route('DELETE', '/:environment/webhook-endpoints/:id',               w.removeWebhookEndpoint,   {}, webhooks.removeWebhookEndpoint),
    route('POST',   '/:environment/webhook-endpoints/:id/rotate-secret', w.rotateWebhookSecret,     {}, webhooks.rotateWebhookSecret),
    route('POST',   '/:environment/webhook-endpoints/:id/enable',        w.enableWebhookEndpoint,   {}, webhooks.enableWebhookEndpoint),
    route('GET',    '/:environment/webhook-deliveries',                  w.listWebhookDeliveries,   {}, webhooks.listWebhookDeliveries),

    route('POST',   '/:environment/config/plan',                         c.planTenancyConfig,       whole, config.planTenancyConfig),
    route('POST',   '/:environment/config/apply',                        c.applyTenancyConfig,      whole, config.applyTenancyConfig),
    route('GET',    '/:environment/config/dump',                         c.dumpTenancyConfig,       {}, config.dumpTenancyConfig),

    route('GET',    '/:environment/privacy-requests',                    o.listPrivacyRequests,     {}, oversight.listPrivacyRequests),
    route('POST',   '/:environment/suppression-lifts',                   o.liftSuppression,         {}, oversight.liftSuppression),
    route('POST',   '/signing-keys',                                     o.rotateSigningKey,        {}, oversight.rotateSigningKey),
    route('GET',    '/audit-events',                                     o.listAuditEvents,         {}, oversight.listAuditEvents),
  ];
}
