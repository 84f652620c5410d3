import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { COMPACTED_TABLES } from '../../../src/services/privacy/compact-privacy-tables.js';
import { rpaAgainst } from '../../helpers/rpa-cli.js';
import { dropSchema, TEST_DATABASE_URL, TEST_DIALECT, uniqueSchema } from '../../helpers/test-runtime.js';

describe(`rpa privacy compact on ${TEST_DIALECT}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'rpa-compaction-cli-'));
  const schema = TEST_DIALECT === 'postgres' ? uniqueSchema() : undefined;
  const databaseUrl = TEST_DIALECT === 'postgres' ? TEST_DATABASE_URL : `sqlite:${join(dir, 'cli.db')}`;

  const rpa = rpaAgainst({ databaseUrl, schema });

  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    if (schema) await dropSchema(TEST_DATABASE_URL, schema);
  });

  it('rewrites the tables and prints what it did', async () => {
    const r = await rpa('privacy', 'compact', '--json');
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(out.tables, [...COMPACTED_TABLES]);
    assert.match(out.id, /^[0-9a-f-]{36}$/);
    for (const k of ['bytesBefore', 'bytesAfter', 'durationMs']) assert.equal(typeof out[k], 'number', k);

    const human = await rpa('privacy', 'compact');
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /^tables\s+reviews, review_identifiers, client_responses/m);
  });

  it('is listed under rpa privacy', async () => {
    const r = await rpa('privacy', '--help');
    assert.equal(r.code, 0);
    assert.match(r.stdout, /compact/);
  });
});
