import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type AuditEntry, recordAudit } from '../../../src/services/audit/record-audit.js';
import { assertOneLineFailure, rpaAgainst } from '../../helpers/rpa-cli.js';
import {
  createTestRuntime,
  dropSchema,
  TEST_DATABASE_URL,
  TEST_DIALECT,
  uniqueSchema,
} from '../../helpers/test-runtime.js';

const START = Date.parse('2026-11-01T00:00:00.000Z');
// More than one page of the admin API (at most 1000 items), so the latest N span pages.
const EVENTS = 1250;

describe(`rpa audit on ${TEST_DIALECT}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'rpa-audit-cli-'));
  const schema = TEST_DIALECT === 'postgres' ? uniqueSchema() : undefined;
  const databaseUrl = TEST_DIALECT === 'postgres' ? TEST_DATABASE_URL : `sqlite:${join(dir, 'cli.db')}`;
  const rpa = rpaAgainst({ databaseUrl, schema });

  before(async () => {
    let now = START;
    const rt = await createTestRuntime(
      {},
      { databaseUrl, keepSchema: true, clock: () => now, ...(schema ? { schema } : {}) },
    );
    try {
      const entries: AuditEntry[] = Array.from({ length: EVENTS }, (_, i) => ({
        action: i % 10 === 0 ? 'application.revoked' : 'client.created',
        targetType: i % 10 === 0 ? 'application' : 'client',
        targetId: `t-${i}`,
        details: i === EVENTS - 1 ? { name: 'Acme-EN_GB' } : {},
        actor: 'cli:ops',
      }));
      for (const entry of entries) {
        now += 1000;
        await recordAudit(rt.deps.store.db, rt.deps, entry);
      }
    } finally {
      await rt.close();
    }
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    if (schema) await dropSchema(TEST_DATABASE_URL, schema);
  });

  const targets = (stdout: string) => (JSON.parse(stdout) as { targetId: string }[]).map((e) => e.targetId);
  const latest = (n: number, of = Array.from({ length: EVENTS }, (_, i) => `t-${i}`)) => of.slice(-n);

  it('prints the latest N events oldest first, across pages of the admin API', async () => {
    const r = await rpa('audit', '--limit', '1100', '--json');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(targets(r.stdout), latest(1100));
    const [first] = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(first), [
      'id',
      'occurredAt',
      'actor',
      'action',
      'targetType',
      'targetId',
      'details',
    ]);
    assert.equal(first.occurredAt, new Date(START + 151_000).toISOString());
    assert.deepEqual(targets((await rpa('audit', '--json')).stdout), latest(100));
    const all = await rpa('audit', '--limit', '10000', '--json');
    assert.equal(JSON.parse(all.stdout).length, EVENTS);
  });

  it('filters by action, target and time, and prints one line per event', async () => {
    const revoked = Array.from({ length: EVENTS / 10 }, (_, i) => `t-${i * 10}`);
    const r = await rpa('audit', '--action', 'application.revoked', '--limit', '5', '--json');
    assert.deepEqual(targets(r.stdout), latest(5, revoked));
    assert.deepEqual(targets((await rpa('audit', '--target', 't-7', '--json')).stdout), ['t-7']);
    const since = new Date(START + (EVENTS - 2) * 1000).toISOString();
    assert.deepEqual(targets((await rpa('audit', '--since', since, '--json')).stdout), latest(3));
    const human = await rpa('audit', '--limit', '1');
    assert.equal(human.code, 0, human.stderr);
    assert.equal(
      human.stdout,
      `${new Date(START + EVENTS * 1000).toISOString()}  cli:ops  client.created  client t-${EVENTS - 1}  {"name":"Acme-EN_GB"}\n`,
    );
    const none = await rpa('audit', '--target', 'nothing');
    assert.equal(none.stdout, 'no audit events\n');
    assert.equal(none.code, 0);
  });

  it('refuses a bad --since or --limit in one line', async () => {
    assertOneLineFailure(await rpa('audit', '--since', 'yesterday'), 'audit --since yesterday');
    assertOneLineFailure(await rpa('audit', '--limit', '10001'), 'audit --limit 10001');
  });
});
