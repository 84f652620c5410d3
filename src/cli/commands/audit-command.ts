import { type Command, InvalidArgumentError } from 'commander';
import { MAX_PAGE_LIMIT } from '../../services/paging/read-page.js';
import { type AdminApi, query, withAdminApi } from '../admin-api.js';
import type { CliIo } from '../cli-io.js';
import { jsonOption, positiveIntegerParser } from '../command-options.js';
import { printResult } from '../output.js';

/** How many of the latest events one `rpa audit` prints at most. */
const MAX_AUDIT_LIST = 10_000;

/** An event as the admin API shows it. */
interface AuditEventView {
  readonly id: string;
  readonly occurredAt: string;
  readonly actor: string;
  readonly action: string;
  readonly targetType: string;
  readonly targetId: string;
  readonly details: Readonly<Record<string, unknown>>;
}

interface AuditFilter {
  readonly since?: number;
  readonly limit: number;
  readonly action?: string;
  readonly target?: string;
}

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--since`: an ISO 8601 date or time, or a span back from now such as `30m`, `24h` or `7d`. */
function parseSince(value: string, now = Date.now()): number {
  const span = /^(\d+)([mhd])$/.exec(value.trim());
  if (span) return now - Number(span[1]) * (UNIT_MS[span[2] as string] as number);
  const at = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at))
    throw new InvalidArgumentError(
      'expected an ISO date (2026-11-24, 2026-11-24T09:00Z) or a span (30m, 24h, 7d)',
    );
  return at;
}

const parseLimit = positiveIntegerParser(MAX_AUDIT_LIST);

function line(e: AuditEventView): string {
  const details = Object.keys(e.details).length > 0 ? `  ${JSON.stringify(e.details)}` : '';
  return `${e.occurredAt}  ${e.actor}  ${e.action}  ${e.targetType} ${e.targetId}${details}`;
}

/**
 * The latest `limit` events, oldest first: the trail read newest first, a page at a time until
 * enough are in, then turned round.
 */
async function latestEvents(api: AdminApi, filter: AuditFilter): Promise<AuditEventView[]> {
  const events: AuditEventView[] = [];
  let cursor: string | null = null;
  do {
    // Each page asks only for what is still missing, so its query is made anew.
    const page: { data: AuditEventView[]; next: string | null } = await api.call(
      'GET',
      `/audit-events${query({
        order: 'newest',
        limit: Math.min(filter.limit - events.length, MAX_PAGE_LIMIT),
        since: filter.since === undefined ? undefined : new Date(filter.since).toISOString(),
        action: filter.action,
        target: filter.target,
        cursor: cursor ?? undefined,
      })}`,
    );
    events.push(...page.data);
    cursor =
      page.next === null ? null : new URL(page.next, 'http://admin.invalid').searchParams.get('cursor');
  } while (cursor !== null && events.length < filter.limit);
  return events.reverse();
}

export function registerAuditCommand(program: Command, io: CliIo): void {
  program
    .command('audit')
    .description('print the audit trail: administrative actions and privacy request changes, oldest first')
    .option('--since <when>', 'from this ISO date or time, or this far back (30m, 24h, 7d)', (v) =>
      parseSince(v),
    )
    .option('--limit <n>', `the latest N events, at most ${MAX_AUDIT_LIST}`, parseLimit, 100)
    .option('--action <name>', 'only this action, e.g. application.revoked')
    .option('--target <id>', 'only events about this id (application, passkey, privacy request ...)')
    .addOption(jsonOption())
    .action(async (opts: AuditFilter & { json?: boolean }) => {
      const events = await withAdminApi(io, (api) => latestEvents(api, opts));
      if (opts.json) return printResult(io, true, events);
      printResult(io, false, null, events.length === 0 ? 'no audit events' : events.map(line).join('\n'));
    });
}
