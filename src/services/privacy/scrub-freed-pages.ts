import type { ServiceDeps } from '../deps.js';

/**
 * Makes erased bytes unrecoverable from the database files (docs/design.md, Privacy API: nothing of an erased subject
 * in free pages or an un-checkpointed WAL). On SQLite the store takes its connection to itself
 * while it runs, so no transaction of this process is open across the checkpoint (which would
 * stop it from truncating the WAL). Resolves false when another process's open read or write kept
 * the WAL from being emptied: the erased bytes it holds are still on disk until a later scrub.
 */
export async function scrubFreedPages(deps: ServiceDeps): Promise<boolean> {
  return deps.store.scrubFreedPages();
}
