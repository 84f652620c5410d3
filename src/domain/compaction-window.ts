/**
 * When the tables that held erased data may be rewritten (docs/design.md, Privacy API: on
 * PostgreSQL the touched tables are rewritten, configurable). A rewrite locks each table while it
 * runs, so it happens only inside a daily window of the operator's choosing, in UTC.
 */

/** `off` leaves rewrites to the operator's command. */
type CompactionMode = 'off' | 'after-erasure' | 'daily';

/**
 * Minutes after 00:00 UTC. The window is [startMinute, endMinute); when endMinute is not after
 * startMinute it wraps midnight (23:00-01:00). 0-1440 is the whole day.
 */
export interface CompactionWindow {
  readonly startMinute: number;
  readonly endMinute: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

function minuteOfDay(epochMs: number): number {
  return Math.floor((((epochMs % DAY_MS) + DAY_MS) % DAY_MS) / MINUTE_MS);
}

export function isInWindow(window: CompactionWindow, epochMs: number): boolean {
  const minute = minuteOfDay(epochMs);
  const { startMinute, endMinute } = window;
  if (startMinute < endMinute) return minute >= startMinute && minute < endMinute;
  return minute >= startMinute || minute < endMinute;
}

/**
 * When the occurrence of the window that contains `epochMs` opened; null outside the window. A
 * window that wraps midnight opened the day before for the minutes after 00:00.
 */
export function windowOpenedAt(window: CompactionWindow, epochMs: number): number | null {
  if (!isInWindow(window, epochMs)) return null;
  const dayStart = epochMs - (((epochMs % DAY_MS) + DAY_MS) % DAY_MS);
  const opened = dayStart + window.startMinute * MINUTE_MS;
  return opened <= epochMs ? opened : opened - DAY_MS;
}

export interface CompactionState {
  readonly mode: CompactionMode;
  readonly window: CompactionWindow;
  readonly now: number;
  /** When an erasure or purge first left deleted rows behind since the last rewrite; null if none. */
  readonly owedSince: number | null;
  /** When the last rewrite (by any trigger) started; null if there never was one. */
  readonly lastStartedAt: number | null;
}

/**
 * Whether the worker rewrites the tables now: only inside the window and only when an erasure left
 * deleted rows behind. `after-erasure` then rewrites at once; `daily` at most once per occurrence of
 * the window, so a window that wraps midnight still means one rewrite a day.
 */
export function isCompactionDue(state: CompactionState): boolean {
  if (state.mode === 'off' || state.owedSince === null) return false;
  const opened = windowOpenedAt(state.window, state.now);
  if (opened === null) return false;
  if (state.mode === 'after-erasure') return true;
  return state.lastStartedAt === null || state.lastStartedAt < opened;
}
