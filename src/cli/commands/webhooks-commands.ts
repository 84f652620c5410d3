import { type Command, InvalidArgumentError } from 'commander';
import {
  isWebhookDeliveryStatus,
  WEBHOOK_DELIVERY_STATUSES,
  type WebhookDeliveryStatus,
} from '../../domain/webhook-delivery-status.js';
import { WEBHOOK_EVENT_TYPES } from '../../domain/webhook-event.js';
import { resolveApplication } from '../../services/tenancy/resolve-application.js';
import { addWebhookEndpoint } from '../../services/webhooks/add-webhook-endpoint.js';
import { enableWebhookEndpoint } from '../../services/webhooks/enable-webhook-endpoint.js';
import {
  listWebhookDeliveries,
  MAX_DELIVERY_LIST,
  type WebhookDelivery,
} from '../../services/webhooks/list-webhook-deliveries.js';
import { listWebhookEndpoints } from '../../services/webhooks/list-webhook-endpoints.js';
import { removeWebhookEndpoint } from '../../services/webhooks/remove-webhook-endpoint.js';
import {
  DEFAULT_SECRET_GRACE_MS,
  rotateWebhookSecret,
} from '../../services/webhooks/rotate-webhook-secret.js';
import type { WebhookEndpoint } from '../../services/webhooks/webhook-endpoint-view.js';
import type { CliIo } from '../cli-io.js';
import { jsonOption, parseList, positiveIntegerParser } from '../command-options.js';
import { printResult } from '../output.js';
import { withRuntime } from '../with-runtime.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

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

const parseLimit = positiveIntegerParser(MAX_DELIVERY_LIST);

const endpointView = (e: WebhookEndpoint) => ({
  id: e.id,
  applicationId: e.applicationId,
  url: e.url,
  events: e.eventTypes,
  status: e.status,
  ...(e.disabledAt !== null ? { disabledAt: iso(e.disabledAt), disabledReason: e.disabledReason } : {}),
  createdAt: iso(e.createdAt),
  liveSecrets: e.liveSecrets,
});

const deliveryView = (d: WebhookDelivery) => ({
  id: d.id,
  webhookId: d.messageId,
  event: d.eventType,
  endpointId: d.endpointId,
  status: d.status,
  attempts: d.attempts,
  createdAt: iso(d.createdAt),
  lastAttemptAt: iso(d.lastAttemptAt),
  lastStatus: d.lastStatus,
  lastError: d.lastError,
  nextAttemptAt: iso(d.nextAttemptAt),
  finishedAt: iso(d.finishedAt),
});

function deliveryLine(d: WebhookDelivery): string {
  const last =
    d.lastAttemptAt === null
      ? 'not tried yet'
      : `last ${iso(d.lastAttemptAt)} ${d.lastStatus ?? ''}${d.lastError && d.lastStatus === null ? d.lastError : ''}`.trim();
  const next = d.nextAttemptAt !== null ? `  next ${iso(d.nextAttemptAt)}` : '';
  return `${iso(d.createdAt)}  ${d.messageId}  ${d.eventType}  endpoint ${d.endpointId}  ${d.status}  attempts ${d.attempts}  ${last}${next}`;
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
      const r = await withRuntime(io, async (rt) => {
        const { id: applicationId } = await resolveApplication(rt.deps, opts.app);
        return addWebhookEndpoint(rt.deps, {
          applicationId,
          url: opts.url,
          ...(opts.events ? { eventTypes: opts.events } : {}),
        });
      });
      printResult(io, !!opts.json, { ...endpointView(r.endpoint), secret: r.secret });
      if (!opts.json)
        io.stderr.write('The signing secret is shown only once; give it to the receiver now.\n');
    });
  webhooks
    .command('list')
    .description('list endpoints with their events and status (never their secrets)')
    .option('--app <app>', 'only this application (id or client id)')
    .addOption(jsonOption())
    .action(async (opts: { app?: string; json?: boolean }) => {
      const rows = await withRuntime(io, async (rt) => {
        const applicationId = opts.app ? (await resolveApplication(rt.deps, opts.app)).id : undefined;
        return listWebhookEndpoints(rt.deps, applicationId ? { applicationId } : {});
      });
      if (!opts.json && rows.length === 0) return printResult(io, false, null, 'no webhook endpoints');
      printResult(io, !!opts.json, rows.map(endpointView));
    });
}

/** Changes to an endpoint already registered. */
function registerEndpointChangeCommands(webhooks: Command, io: CliIo): void {
  webhooks
    .command('remove <endpoint>')
    .description('remove an endpoint; its undelivered events are dropped')
    .addOption(jsonOption())
    .action(async (endpoint: string, opts: { json?: boolean }) => {
      await withRuntime(io, (rt) => removeWebhookEndpoint(rt.deps, { endpointId: endpoint }));
      printResult(io, !!opts.json, { removed: endpoint });
    });
  webhooks
    .command('rotate-secret <endpoint>')
    .description('give an endpoint a new signing secret; the old one also signs during the grace period')
    .option('--grace <span>', 'how long the old secret keeps signing (default 24h, at most 30d)', parseGrace)
    .addOption(jsonOption())
    .action(async (endpoint: string, opts: { grace?: number; json?: boolean }) => {
      const r = await withRuntime(io, (rt) =>
        rotateWebhookSecret(rt.deps, {
          endpointId: endpoint,
          graceMs: opts.grace ?? DEFAULT_SECRET_GRACE_MS,
        }),
      );
      printResult(io, !!opts.json, {
        id: endpoint,
        secret: r.secret,
        previousSecretSignsUntil: iso(r.previousExpiresAt),
      });
      if (!opts.json)
        io.stderr.write('The new signing secret is shown only once; give it to the receiver now.\n');
    });
  webhooks
    .command('enable <endpoint>')
    .description('send to an endpoint again after it answered 410 Gone')
    .addOption(jsonOption())
    .action(async (endpoint: string, opts: { json?: boolean }) => {
      await withRuntime(io, (rt) => enableWebhookEndpoint(rt.deps, { endpointId: endpoint }));
      printResult(io, !!opts.json, { enabled: endpoint });
    });
}

function registerDeliveriesCommand(webhooks: Command, io: CliIo): void {
  webhooks
    .command('deliveries')
    .description('list deliveries, newest event first: status, attempts, last answer, next attempt')
    .option('--app <app>', 'only this application (id or client id)')
    .option('--endpoint <id>', 'only this endpoint')
    .option('--status <status>', 'pending, delivered or failed', parseStatus)
    .option('--webhook-id <id>', 'only this event (its webhook-id, msg_...)')
    .option('--limit <n>', `the latest N deliveries, at most ${MAX_DELIVERY_LIST}`, parseLimit, 100)
    .addOption(jsonOption())
    .action(
      async (opts: {
        app?: string;
        endpoint?: string;
        status?: WebhookDeliveryStatus;
        webhookId?: string;
        limit: number;
        json?: boolean;
      }) => {
        const rows = await withRuntime(io, async (rt) => {
          const applicationId = opts.app ? (await resolveApplication(rt.deps, opts.app)).id : undefined;
          return listWebhookDeliveries(rt.deps, {
            limit: opts.limit,
            ...(applicationId ? { applicationId } : {}),
            ...(opts.endpoint ? { endpointId: opts.endpoint } : {}),
            ...(opts.status ? { status: opts.status } : {}),
            ...(opts.webhookId ? { messageId: opts.webhookId } : {}),
          });
        });
        if (opts.json) return printResult(io, true, rows.map(deliveryView));
        printResult(io, false, null, rows.length === 0 ? 'no deliveries' : rows.map(deliveryLine).join('\n'));
      },
    );
}
