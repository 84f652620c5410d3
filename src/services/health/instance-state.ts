/**
 * Where this instance is in its life, which readiness and the start-up gate answer from: it
 * `starts` until the database has been reached with a schema it can serve and its keys are
 * resolved, then `serves`, and `drains` from SIGTERM on (docs/operations.md, Health, readiness
 * and migrations).
 */
export type InstancePhase = 'starting' | 'serving' | 'draining';

/** Why a starting instance cannot serve yet, in words safe to show to anyone. */
export interface StartBlocker {
  readonly detail: string;
  /** Migrations this version needs that the database lacks, when that is the reason. */
  readonly pendingMigrations?: readonly string[];
}

export interface InstanceState {
  phase: InstancePhase;
  blocker: StartBlocker | null;
}

export function createInstanceState(phase: InstancePhase = 'starting'): InstanceState {
  return { phase, blocker: phase === 'starting' ? { detail: 'the instance is starting' } : null };
}
