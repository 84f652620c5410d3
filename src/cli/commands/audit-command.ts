import { type Command, InvalidArgumentError } from 'commander';
import type { AuditEvent } from '../../domain/audit-event.js';
import { listAuditEvents, MAX_AUDIT_LIST } from '../../services/audit/list-audit-events.js';
import type { CliIo } from '../cli-io.js';
import { jsonOption } from '../command-options.js';
import { printResult } from '../output.js';
import { withRuntime } from '../with-runtime.js';

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

function parseLimit(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_AUDIT_LIST)
    throw new InvalidArgumentError(`expected a whole number from 1 to ${MAX_AUDIT_LIST}`);
  return Number(value);
}

function line(e: AuditEvent): string {
  const details = Object.keys(e.details).length > 0 ? `  ${JSON.stringify(e.details)}` : '';
  return `${new Date(e.occurredAt).toISOString()}  ${e.actor}  ${e.action}  ${e.targetType} ${e.targetId}${details}`;
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
    .action(
      async (opts: { since?: number; limit: number; action?: string; target?: string; json?: boolean }) => {
        const events = await withRuntime(io, (rt) =>
          listAuditEvents(rt.deps, {
            limit: opts.limit,
            ...(opts.since !== undefined ? { since: opts.since } : {}),
            ...(opts.action !== undefined ? { action: opts.action } : {}),
            ...(opts.target !== undefined ? { targetId: opts.target } : {}),
          }),
        );
        if (opts.json) {
          printResult(
            io,
            true,
            events.map((e) => ({ ...e, occurredAt: new Date(e.occurredAt).toISOString() })),
          );
          return;
        }
        printResult(io, false, null, events.length === 0 ? 'no audit events' : events.map(line).join('\n'));
      },
    );
}
