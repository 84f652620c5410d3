import { type Command, InvalidArgumentError } from 'commander';
import { mentionsSecretCredential } from '../../domain/credentials.js';
import { ENVIRONMENTS, type Environment } from '../../domain/environment.js';
import {
  isWebhookDeliveryStatus,
  WEBHOOK_DELIVERY_STATUSES,
  type WebhookDeliveryStatus,
} from '../../domain/webhook-delivery-status.js';
import { WEBHOOK_EVENT_TYPES } from '../../domain/webhook-event.js';
import { MAX_PAGE_LIMIT } from '../../services/paging/read-page.js';
import { SECRET_NOT_ENDPOINT } from '../../services/webhooks/list-webhook-endpoints.js';
import { type AdminApi, query, withAdminApi } from '../admin-api.js';
import { CliError } from '../cli-error.js';
import type { CliIo } from '../cli-io.js';
import { jsonOption, parseEnvironment, parseList, positiveIntegerParser } from '../command-options.js';
import {
  fromEnvironments,
  inItsEnvironment,
  type Named as NamedThing,
  namedApplication,
  namedEndpoint,
} from '../in-its-environment.js';
import { printResult } from '../output.js';
import { refuseSecretAsApplication } from './apps-commands.js';

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--grace`: how long the old secret keeps signing, e.g. `0m`, `1h`, `24h`, `7d` (at most 30 days). */
function parseGrace(v: string): number {
  const m = /^(\d+)([mhd])$/.exec(v.trim());
  const ms = m ? Number(m[1]) * (UNIT_MS[m[2] as string] as number) : Number.NaN;
  if (Number.isNaN(ms) || ms > 30 * UNIT_MS.d!)
    throw new InvalidArgumentError('expected a span up to 30 days, e.g. 0m, 1h, 24h, 7d');
  return ms;
}

function parseStatus(v: string): WebhookDeliveryStatus {
  if (!isWebhookDeliveryStatus(v))
    throw new InvalidArgumentError(`expected ${WEBHOOK_DELIVERY_STATUSES.join(', ')}`);
  return v;
}

const parseLimit = positiveIntegerParser(MAX_PAGE_LIMIT);

/** A delivery as the admin API shows it (webhook-admin-schemas.ts). */
interface Delivery {
  readonly id: string;
  readonly webhookId: string;
  readonly event: string;
  readonly endpointId: string;
  readonly status: string;
  readonly attempts: number;
  readonly createdAt: string;
  readonly lastAttemptAt: string | null;
  readonly lastStatus: number | null;
  readonly lastError: string | null;
  readonly nextAttemptAt: string | null;
}

function deliveryLine(d: Delivery): string {
  const last =
    d.lastAttemptAt === null
      ? 'not tried yet'
      : `last ${d.lastAttemptAt} ${d.lastStatus ?? ''}${d.lastError && d.lastStatus === null ? d.lastError : ''}`.trim();
  const next = d.nextAttemptAt !== null ? `  next ${d.nextAttemptAt}` : '';
  return `${d.createdAt}  ${d.webhookId}  ${d.event}  endpoint ${d.endpointId}  ${d.status}  attempts ${d.attempts}  ${last}${next}`;
}

/** What a command names that lives in one environment: an application, an endpoint. */
interface Named {
  readonly app?: string | undefined;
  readonly endpoint?: string | undefined;
}

/** A secret where an id belongs is refused here, before it would travel in a URL or a body. */
function refuseSecrets(named: Named & { webhookId?: string | undefined }): void {
  if (named.app !== undefined) refuseSecretAsApplication(named.app);
  if (named.endpoint !== undefined && mentionsSecretCredential(named.endpoint))
    throw new CliError(SECRET_NOT_ENDPOINT);
  if (named.webhookId !== undefined && mentionsSecretCredential(named.webhookId))
    throw new CliError('--webhook-id takes the id of an event (msg_...), not a secret');
}

/** What a command names, as in-its-environment.ts looks for it. */
const namedIn = (named: Named): NamedThing[] => [
  ...(named.app !== undefined ? [namedApplication(named.app)] : []),
  ...(named.endpoint !== undefined ? [namedEndpoint(named.endpoint)] : []),
];

/** `work` on the admin API's path of an endpoint, in whichever environment it is. */
function onEndpoint<T>(io: CliIo, endpoint: string, work: (api: AdminApi, path: string) => Promise<T>) {
  refuseSecrets({ endpoint });
  return withAdminApi(io, (api) =>
    inItsEnvironment(namedIn({ endpoint }), (env) =>
      work(api, `/${env}/webhook-endpoints/${encodeURIComponent(endpoint)}`),
    ),
  );
}

export function registerWebhooksCommands(program: Command, io: CliIo): void {
  const webhooks = program
    .command('webhooks')
    .description('endpoints that receive signed privacy request events (Standard Webhooks)');
  registerEndpointCommands(webhooks, io);
  registerEndpointChangeCommands(webhooks, io);
  registerDeliveriesCommand(webhooks, io);
}

/** Registering an endpoint, and listing them. */
function registerEndpointCommands(webhooks: Command, io: CliIo): void {
  webhooks
    .command('add')
    .description('register an endpoint for an application; prints its signing secret once')
    .requiredOption('--app <app>', 'the application, by id or client id')
    .requiredOption('--url <url>', 'https URL the events are POSTed to')
    .option('--events <types>', `comma-separated, default all: ${WEBHOOK_EVENT_TYPES.join(', ')}`, parseList)
    .addOption(jsonOption())
    .action(async (opts: { app: string; url: string; events?: string[]; json?: boolean }) => {
      refuseSecrets(opts);
      const body = { app: opts.app, url: opts.url, ...(opts.events ? { events: opts.events } : {}) };
      const created = await withAdminApi(io, (api) =>
        inItsEnvironment(namedIn(opts), (env) => api.create(`/${env}/webhook-endpoints`, body)),
      );
      printResult(io, !!opts.json, created);
      if (!opts.json)
        io.stderr.write('The signing secret is shown only once; give it to the receiver now.\n');
    });
  webhooks
    .command('list')
    .description('list endpoints with their events and status (never their secrets)')
    .option('--app <app>', 'only this application (id or client id)')
    .option('--env <environment>', 'only this environment (default: both)', parseEnvironment)
    .addOption(jsonOption())
    .action(async (opts: { app?: string; env?: Environment; json?: boolean }) => {
      refuseSecrets(opts);
      const rows = await withAdminApi(io, (api) =>
        fromEnvironments(opts.env ? [opts.env] : ENVIRONMENTS, namedIn(opts), (env) =>
          api.all(`/${env}/webhook-endpoints${query({ app: opts.app })}`),
        ),
      );
      if (!opts.json && rows.length === 0) return printResult(io, false, null, 'no webhook endpoints');
      printResult(io, !!opts.json, rows);
    });
}

/** Changes to an endpoint already registered, in whichever environment it is. */
function registerEndpointChangeCommands(webhooks: Command, io: CliIo): void {
  webhooks
    .command('remove <endpoint>')
    .description('remove an endpoint; its undelivered events are dropped')
    .addOption(jsonOption())
    .action(async (endpoint: string, opts: { json?: boolean }) => {
      await onEndpoint(io, endpoint, (api, path) => api.call('DELETE', path));
      printResult(io, !!opts.json, { removed: endpoint });
    });
  webhooks
    .command('rotate-secret <endpoint>')
    .description('give an endpoint a new signing secret; the old one also signs during the grace period')
    .option('--grace <span>', 'how long the old secret keeps signing (default 24h, at most 30d)', parseGrace)
    .addOption(jsonOption())
    .action(async (endpoint: string, opts: { grace?: number; json?: boolean }) => {
      const body = opts.grace === undefined ? {} : { graceSeconds: opts.grace / 1000 };
      const rotated = await onEndpoint(io, endpoint, (api, path) =>
        api.create(`${path}/rotate-secret`, body),
      );
      printResult(io, !!opts.json, rotated);
      if (!opts.json)
        io.stderr.write('The new signing secret is shown only once; give it to the receiver now.\n');
    });
  webhooks
    .command('enable <endpoint>')
    .description('send to an endpoint again after it answered 410 Gone')
    .addOption(jsonOption())
    .action(async (endpoint: string, opts: { json?: boolean }) => {
      const enabled = await onEndpoint(io, endpoint, (api, path) => api.call('POST', `${path}/enable`));
      printResult(io, !!opts.json, enabled);
    });
}

interface DeliveriesOptions {
  app?: string;
  env?: Environment;
  endpoint?: string;
  status?: WebhookDeliveryStatus;
  webhookId?: string;
  limit: number;
  json?: boolean;
}

function registerDeliveriesCommand(webhooks: Command, io: CliIo): void {
  webhooks
    .command('deliveries')
    .description('list deliveries, newest event first: status, attempts, last answer, next attempt')
    .option('--app <app>', 'only this application (id or client id)')
    .option('--env <environment>', 'only this environment (default: both)', parseEnvironment)
    .option('--endpoint <id>', 'only this endpoint')
    .option('--status <status>', 'pending, delivered or failed', parseStatus)
    .option('--webhook-id <id>', 'only this event (its webhook-id, msg_...)')
    .option('--limit <n>', `the latest N deliveries, at most ${MAX_PAGE_LIMIT}`, parseLimit, 100)
    .addOption(jsonOption())
    .action(async (opts: DeliveriesOptions) => {
      refuseSecrets(opts);
      const { limit, app, endpoint, status, webhookId } = opts;
      const filters = query({ limit, app, endpoint, status, webhookId });
      // The latest N of each environment, merged: the latest N of both.
      const found = await withAdminApi(io, (api) =>
        fromEnvironments(opts.env ? [opts.env] : ENVIRONMENTS, namedIn(opts), async (env) => {
          const page = await api.call<{ data: Delivery[] }>('GET', `/${env}/webhook-deliveries${filters}`);
          return page.data;
        }),
      );
      const rows = found.sort(newestFirst).slice(0, opts.limit);
      if (opts.json) return printResult(io, true, rows);
      printResult(io, false, null, rows.length === 0 ? 'no deliveries' : rows.map(deliveryLine).join('\n'));
    });
}

/** The admin API's order of deliveries: by event time, then by id, both descending. */
function newestFirst(a: Delivery, b: Delivery): number {
  const at = Date.parse(b.createdAt) - Date.parse(a.createdAt);
  return at !== 0 ? at : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
