import type { FileProblem } from './tenancy-file.js';

type PlanKind = 'client' | 'application' | 'passkey' | 'webhook';

export interface FieldChange {
  readonly from: unknown;
  readonly to: unknown;
}

/**
 * One step of a plan. `key` names the object as a file does: a client or application name,
 * `<application>/<passkey>`, `<application> <url>`; `id` is the existing object's.
 */
export interface PlanItem {
  readonly kind: PlanKind;
  readonly key: string;
  readonly id?: string;
  readonly fields?: Readonly<Record<string, FieldChange>>;
  /** Its secret is replaced (a changed `rotate:` label). */
  readonly rotate?: true;
}

export interface PlanOptions {
  readonly prune: boolean;
  readonly adopt: boolean;
  readonly maxDeletes: number;
  readonly now: number;
  /** The configured limits a passkey gets when its file gives none. */
  readonly defaults: { readonly ratePerMinute: number; readonly quotaPerDay: number };
  /** Why a new webhook URL is refused, or null (domain/webhook-url.ts under the configured policy). */
  readonly refuseUrl: (url: string) => string | null;
}

/** Where a plan under construction collects its steps. */
export interface PlanSink {
  readonly creations: PlanItem[];
  readonly changes: PlanItem[];
  readonly adoptions: PlanItem[];
  readonly problems: FileProblem[];
}

/**
 * The object of `candidates` (same kind, same name) that the file's stack may work on: its own;
 * with `adopt`, the one no stack manages. Another stack's object of that name is always a conflict:
 * a prune or a change must never reach what another stack manages.
 */
export function claim<T extends { readonly managedBy: string | null }>(
  candidates: readonly T[],
  stack: string,
  adopt: boolean,
): { found?: T; adopting?: true; problem?: string } {
  const own = candidates.filter((c) => c.managedBy === stack);
  if (own.length === 1) return { found: own[0] as T };
  if (own.length > 1) return { problem: `${own.length} objects of stack ${stack} have this name` };
  const other = candidates.find((c) => c.managedBy !== null);
  if (other) return { problem: `exists, managed by stack ${other.managedBy}` };
  if (candidates.length === 0) return {};
  if (candidates.length > 1)
    return { problem: `${candidates.length} objects no stack manages have this name; revoke all but one` };
  if (!adopt) return { problem: 'exists and no stack manages it; --adopt claims it for this stack' };
  return { found: candidates[0] as T, adopting: true };
}
