/**
 * The server's resident memory while it sends one person's access export, JSON and ZIP, for
 * exports of several sizes: a streamed download keeps it flat whatever the size
 * (docs/privacy.md, Exports). SQLite, one `rpa serve` process, loopback only.
 *
 *   node --import tsx bench/export-memory.ts [--reviews 15000,150000] [--max-heap 40] [--out FILE]
 *
 * Writes its table to a new file under bench/results/ (bench/harness/run-record.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { buildServer } from '../src/http/build-server.js';
import { createLogger } from '../src/logger.js';
import { createRuntime } from '../src/runtime.js';
import {
  drainPrivacyQueue,
  importReviewsBy,
  privacyClient,
  seedPrivacyTenant,
} from '../test/helpers/privacy-fixtures.js';
import { freePort, peakRssMiB, rssMiB, start, stop } from './harness/processes.js';
import { recordRun, revisionOf } from './harness/run-record.js';

const { values } = parseArgs({
  options: {
    reviews: { type: 'string', default: '15000,150000' },
    // A V8 heap this small (MiB) still serves the download only if it is streamed.
    'max-heap': { type: 'string' },
    out: { type: 'string' },
  },
});

/** A database with one person's export of `count` reviews, ready to download. */
async function seed(databaseUrl: string, count: number) {
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    WORKER_ENABLED: 'false',
    WORKER_BATCH_SIZE: '1000',
  });
  const runtime = await createRuntime(config, { logger: createLogger('warn') });
  try {
    const tenant = await seedPrivacyTenant(runtime.deps);
    const person = { name: 'Prolific Reviewer', emailAddress: 'prolific@example.com' };
    await importReviewsBy(runtime.deps, person, { clientName: 'Acme-EN_GB', count });
    const app = await buildServer(runtime.http);
    const filed = await privacyClient(app, tenant).post('access', { emailAddress: person.emailAddress });
    await app.close();
    await drainPrivacyQueue(runtime.deps);
    return { tenant, requestId: (filed.json() as { id: string }).id };
  } finally {
    await runtime.close();
  }
}

/** Downloads `url` to nowhere while sampling the server's resident memory; its peak, in MiB. */
async function download(server: ChildProcess, url: string, token: string) {
  let peak = rssMiB(server);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMiB(server));
  }, 10);
  let bytes = 0;
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) bytes += chunk.length;
  clearInterval(timer);
  return { status: res.status, bytes, peak };
}

const started = new Date();
const children = new Set<ChildProcess>();
const rows: string[] = [
  '| reviews | format | bytes | RSS before MiB | peak RSS during MiB | growth MiB |',
  '|---:|---|---:|---:|---:|---:|',
];
for (const count of (values.reviews ?? '').split(',').map(Number)) {
  const dir = mkdtempSync(join(tmpdir(), 'rpa-export-memory-'));
  const databaseUrl = `sqlite:${join(dir, 'export.db')}`;
  const { tenant, requestId } = await seed(databaseUrl, count);
  const port = await freePort();
  const heap = values['max-heap'] ? [`--max-old-space-size=${values['max-heap']}`] : [];
  const server = await start(children, process.execPath, [...heap, 'bin/rpa.js', 'serve'], {
    env: {
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      WORKER_ENABLED: 'false',
      LOG_LEVEL: 'warn',
    },
    readyUrl: `http://127.0.0.1:${port}/readyz`,
  });
  const url = `http://127.0.0.1:${port}/privacy/v1/accessRequests/${requestId}/export?passkey=${tenant.privacyPasskey}`;
  for (const format of ['json', 'zip']) {
    const before = rssMiB(server);
    const r = await download(server, `${url}&format=${format}`, tenant.token);
    if (r.status !== 200) throw new Error(`download answered ${r.status}`);
    rows.push(
      `| ${count} | ${format} | ${r.bytes} | ${before} | ${r.peak} | ${Math.round((r.peak - before) * 10) / 10} |`,
    );
  }
  rows.push(`| ${count} | (process peak) | | | ${peakRssMiB(server)} | |`);
  await stop(server);
  rmSync(dir, { recursive: true, force: true });
}
const { text, path } = recordRun(
  process.cwd(),
  {
    title: 'bench/export-memory.ts',
    started,
    revision: revisionOf(process.cwd()),
    options: values,
    body: rows.join('\n'),
  },
  values.out,
);
process.stdout.write(`${text}\nwritten to ${path}\n`);
