import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { isCompactionDue } from '../../domain/compaction-window.js';
import {
  deleteCompaction,
  findCompactionOwed,
  findLastCompactionStart,
  finishCompaction,
  insertCompaction,
  markCompactionOwed,
  takeCompactionOwed,
} from '../../store/repositories/privacy-compactions.js';
import type { ServiceDeps } from '../deps.js';

/**
 * Every table that can hold an erased person's data: their reviews, profile fields and responses,
 * earlier access exports, and what their requests leave (keyed hashes only, but rewritten too so
 * that nothing of a purged request lingers either).
 */
export const COMPACTED_TABLES = Object.freeze([
  'reviews',
  'review_identifiers',
  'client_responses',
  'privacy_exports',
  'privacy_export_reviews',
  'privacy_request_identifiers',
  'privacy_pending_keys',
  'privacy_suppressions',
] as const);

/** `command` is the operator's `rpa privacy compact`; the others are the worker's PRIVACY_COMPACT modes. */
export type CompactionTrigger = 'command' | 'after-erasure' | 'daily';

interface CompactionDone {
  readonly id: string;
  readonly tables: readonly string[];
  readonly bytesBefore: number;
  readonly bytesAfter: number;
  readonly durationMs: number;
}

interface CompactionSkipped {
  readonly skipped: 'another instance is compacting' | 'not due';
}

export type CompactionResult = CompactionDone | CompactionSkipped;

const NOT_DUE: CompactionSkipped = Object.freeze({ skipped: 'not due' });

/**
 * Rewrites the tables that held erased data, so deleted rows leave the database files
 * (docs/design.md, Privacy API: on PostgreSQL the touched tables are rewritten, configurable).
 * The command always rewrites; the worker's triggers only inside PRIVACY_COMPACT_WINDOW and
 * when an erasure or purge left deleted rows behind (`daily`: once per window). Each rewrite is
 * recorded in privacy_compactions, including a failed one, whose owed mark is put back.
 */
export async function compactPrivacyTables(
  deps: ServiceDeps,
  input: { trigger: CompactionTrigger },
): Promise<CompactionResult> {
  const { store, logger } = deps;
  const db = store.db;
  const { trigger } = input;
  const startedAt = deps.clock();
  if (trigger !== 'command') {
    const due = isCompactionDue({
      mode: trigger,
      window: deps.config.privacy.compact.window,
      now: startedAt,
      owedSince: await findCompactionOwed(db),
      lastStartedAt: trigger === 'daily' ? await findLastCompactionStart(db) : null,
    });
    if (!due) return NOT_DUE;
  }
  // Taken before the rewrite starts: an erasure that completes meanwhile marks the tables again.
  const owedSince = await takeCompactionOwed(db);
  // Another instance took the mark since it was read: the rewrite is theirs.
  if (trigger !== 'command' && owedSince === null) return NOT_DUE;
  const putBack = async () => {
    if (owedSince !== null) await markCompactionOwed(db, owedSince);
  };

  const id = randomUUID();
  const tables = [...COMPACTED_TABLES];
  await insertCompaction(db, { id, trigger, tables, startedAt });
  const started = performance.now();
  let sizes: Awaited<ReturnType<typeof store.compactTables>>;
  try {
    sizes = await store.compactTables(tables);
  } catch (err) {
    const error = err instanceof Error ? (err.message.split('\n')[0] ?? '').slice(0, 500) : 'failed';
    await finishCompaction(db, id, { finishedAt: deps.clock(), error });
    await putBack();
    throw err;
  }
  if (!sizes) {
    await deleteCompaction(db, id);
    await putBack();
    logger.info({ trigger }, 'privacy table compaction skipped: another instance is compacting');
    return { skipped: 'another instance is compacting' };
  }
  const durationMs = Math.round(performance.now() - started);
  await finishCompaction(db, id, { finishedAt: deps.clock(), ...sizes });
  // Names, sizes and times only: nothing here says whose rows were removed.
  logger.info(
    { privacyCompactionId: id, trigger, tables: tables.length, ...sizes, durationMs },
    'privacy tables compacted',
  );
  return { id, tables, bytesBefore: sizes.bytesBefore, bytesAfter: sizes.bytesAfter, durationMs };
}
