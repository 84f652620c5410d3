import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { createPrivacyRequest } from '../../../src/services/privacy/create-privacy-request.js';
import { type PrivacyWorker, startPrivacyWorker } from '../../../src/worker/privacy-worker.js';
import { importReviewsBy, type PrivacyTenant, seedPrivacyTenant } from '../../helpers/privacy-fixtures.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../../helpers/test-runtime.js';

const PAT = { name: 'Pat Heldopen', authorId: 'pat-31', emailAddress: 'pat.heldopen@example.com' };

/** Resolves once `check` holds, looking again every 20 ms; gives up when the test times out. */
async function until(check: () => boolean, signal: AbortSignal): Promise<void> {
  while (!check()) {
    signal.throwIfAborted();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// A second process reading the same SQLite file (another instance, an `rpa` command, a backup)
// can hold a read open while the worker erases someone. The WAL then cannot be emptied, and the
// erased bytes it holds stay on disk: the worker must come back for them once that read ends.
describe('the privacy worker scrubs erased bytes another process kept in the WAL', {
  skip: TEST_DIALECT !== 'sqlite' && 'SQLite only: PostgreSQL has no WAL file of its own to scrub',
}, () => {
  const dir = mkdtempSync(join(tmpdir(), 'rpa-worker-scrub-'));
  const file = join(dir, 'scrub.db');
  let rt: TestRuntime;
  let tenant: PrivacyTenant;
  let worker: PrivacyWorker | undefined;
  let other: SqliteDatabase.Database | undefined;

  before(async () => {
    rt = await createTestRuntime({ WORKER_POLL_INTERVAL_MS: '600000' }, { databaseUrl: `sqlite:${file}` });
    tenant = await seedPrivacyTenant(rt.deps);
  });
  after(async () => {
    await worker?.stop();
    other?.close();
    await rt.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const onDisk = (value: string) =>
    Buffer.concat([file, `${file}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f))).includes(
      Buffer.from(value),
    );

  it('tries again each second until the read ends, then leaves no byte of the person', {
    timeout: 60_000,
  }, async (t) => {
    await importReviewsBy(rt.deps, PAT, { clientName: 'Acme-EN_GB', count: 3 });
    assert.ok(onDisk(PAT.emailAddress), 'the search finds what is stored');

    // The other process's snapshot holds the reviews' frames in the WAL.
    other = new SqliteDatabase(file);
    other.exec('begin');
    assert.deepEqual(
      other.prepare('select count(*) as n from reviews where author_email = ?').get(PAT.emailAddress),
      {
        n: 3,
      },
    );

    let completed = false;
    // Counts the scrubs refused after the erasure completed.
    let refusedAfter = 0;
    const { store } = rt.deps;
    const counting = {
      ...store,
      async scrubFreedPages() {
        const scrubbed = await store.scrubFreedPages();
        if (!scrubbed && completed) refusedAfter++;
        return scrubbed;
      },
    };
    worker = startPrivacyWorker(
      { ...rt.deps, store: counting },
      {
        afterBatch: ({ receipt }) => {
          if (receipt['Acme-EN_GB']?.reviews === 3) completed = true;
        },
      },
    );
    await createPrivacyRequest(rt.deps, {
      type: 'forget',
      environment: 'production',
      applicationId: tenant.applicationId,
      identifiers: { emailAddress: PAT.emailAddress },
    });
    // Idle, and polling only every ten minutes: only the owed scrub brings the worker back.
    await until(() => refusedAfter >= 3, t.signal);
    assert.ok(rt.logs.text().includes('freed pages not scrubbed yet'));
    assert.ok(onDisk(PAT.emailAddress), 'the open read keeps the erased bytes in the WAL');

    other.exec('commit');
    await until(() => !onDisk(PAT.emailAddress), t.signal);
    assert.ok(rt.logs.text().includes('freed pages scrubbed'));
  });
});

describe(`the privacy worker on ${TEST_DIALECT} when a scrub fails`, () => {
  let rt: TestRuntime;
  before(async () => {
    rt = await createTestRuntime({ WORKER_POLL_INTERVAL_MS: '50' });
  });
  after(() => rt.close());

  it('still owes it, and scrubs again', { timeout: 60_000 }, async (t) => {
    const { store } = rt.deps;
    let calls = 0;
    const failingOnce = {
      ...store,
      async scrubFreedPages() {
        calls++;
        if (calls === 1) throw new Error('disk I/O error');
        return store.scrubFreedPages();
      },
    };
    // A worker owes a scrub when it starts (what a process before it may have left in the WAL).
    const worker = startPrivacyWorker({ ...rt.deps, store: failingOnce });
    try {
      await until(() => calls >= 2, t.signal);
    } finally {
      await worker.stop();
    }
    assert.ok(rt.logs.text().includes('privacy worker iteration failed'));
  });
});
