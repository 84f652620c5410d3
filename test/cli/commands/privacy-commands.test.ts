import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { COMPACTED_TABLES } from '../../../src/services/privacy/compact-privacy-tables.js';
import { createPrivacyRequest } from '../../../src/services/privacy/create-privacy-request.js';
import { drainPrivacyQueue, importReviewsBy, seedPrivacyTenant } from '../../helpers/privacy-fixtures.js';
import { assertOneLineFailure, rpaAgainst } from '../../helpers/rpa-cli.js';
import {
  createTestRuntime,
  dropSchema,
  TEST_DATABASE_URL,
  TEST_DIALECT,
  uniqueSchema,
} from '../../helpers/test-runtime.js';

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

describe(`rpa privacy unsuppress on ${TEST_DIALECT}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'rpa-unsuppress-cli-'));
  const schema = TEST_DIALECT === 'postgres' ? uniqueSchema() : undefined;
  const databaseUrl = TEST_DIALECT === 'postgres' ? TEST_DATABASE_URL : `sqlite:${join(dir, 'cli.db')}`;
  const rpa = rpaAgainst({ databaseUrl, schema });
  const dana = { name: 'Dana Example', authorId: 'dana-3', emailAddress: 'dana.private@example.com' };

  before(async () => {
    const rt = await createTestRuntime({}, { databaseUrl, keepSchema: true, ...(schema ? { schema } : {}) });
    try {
      const tenant = await seedPrivacyTenant(rt.deps);
      for (const clientName of ['Acme-EN_GB', 'Acme-DE_DE'])
        await importReviewsBy(rt.deps, dana, { clientName, count: 1 });
      await createPrivacyRequest(rt.deps, {
        type: 'forget',
        environment: 'production',
        applicationId: tenant.applicationId,
        identifiers: { authorId: dana.authorId },
      });
      await drainPrivacyQueue(rt.deps);
    } finally {
      await rt.close();
    }
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    if (schema) await dropSchema(TEST_DATABASE_URL, schema);
  });

  const lifts = async () => {
    const rt = await createTestRuntime({}, { databaseUrl, keepSchema: true, ...(schema ? { schema } : {}) });
    try {
      return await rt.deps.store.db
        .selectFrom('privacy_suppression_lifts')
        .select(['client_name', 'lifted_by', 'reason'])
        .orderBy('client_name')
        .execute();
    } finally {
      await rt.close();
    }
  };

  it('lifts through the admin API, recorded by the operator unless --by names someone', async () => {
    const one = await rpa(
      'privacy',
      'unsuppress',
      '--identifier',
      `emailAddress=${dana.emailAddress}`,
      '--client',
      'Acme-EN_GB',
      '--reason',
      'returned',
      '--json',
    );
    assert.equal(one.code, 0, one.stderr);
    const out = JSON.parse(one.stdout);
    assert.deepEqual(Object.keys(out), ['lifted']);
    assert.equal(out.lifted[0].clientName, 'Acme-EN_GB');
    const rest = await rpa(
      'privacy',
      'unsuppress',
      '--identifier',
      `authorId=${dana.authorId}`,
      '--reason',
      'returned everywhere',
      '--by',
      'ops',
    );
    assert.equal(rest.code, 0, rest.stderr);
    assert.match(rest.stdout, /^lifted in Acme-DE_DE: \d+ identifier\(s\), record [0-9a-f-]{36}\n$/);
    for (const r of [one, rest]) assert.ok(!`${r.stdout}${r.stderr}`.includes('dana'), r.stdout + r.stderr);
    assert.deepEqual(
      (await lifts()).map((l) => [l.client_name, l.lifted_by]),
      [
        ['Acme-DE_DE', 'ops'],
        ['Acme-EN_GB', `cli:${userInfo().username}`],
      ],
    );
  });

  it('fails in one line when nobody matches or an identifier is invalid, without echoing it', async () => {
    const nobody = await rpa('privacy', 'unsuppress', '--identifier', 'authorId=erin-1', '--reason', 'x');
    assert.match(assertOneLineFailure(nobody, 'no match'), /^rpa: no forgotten person in production matches/);
    const bad = await rpa('privacy', 'unsuppress', '--identifier', 'emailAddress=nope-81x', '--reason', 'x');
    assert.equal(
      assertOneLineFailure(bad, 'invalid email'),
      'rpa: emailAddress is not a valid email address',
    );
    const staging = await rpa(
      'privacy',
      'unsuppress',
      '--identifier',
      `authorId=${dana.authorId}`,
      '--reason',
      'x',
      '--env',
      'staging',
      '--client',
      'Nope',
    );
    assert.match(assertOneLineFailure(staging, 'unknown client'), /^rpa: no client named "Nope" in staging/);
  });
});
