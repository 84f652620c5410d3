import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { assertOneLineFailure, rpaAgainst } from '../../helpers/rpa-cli.js';
import { dropSchema, TEST_DATABASE_URL, TEST_DIALECT, uniqueSchema } from '../../helpers/test-runtime.js';

const dir = mkdtempSync(join(tmpdir(), 'rpa-passkeys-'));
const schema = TEST_DIALECT === 'postgres' ? uniqueSchema() : undefined;
const databaseUrl = TEST_DIALECT === 'postgres' ? TEST_DATABASE_URL : `sqlite:${join(dir, 'cli.db')}`;
const rpa = rpaAgainst({ databaseUrl, schema });

interface Demo {
  applicationId: string;
  clientId: string;
  responsePasskeyId: string;
  privacyPasskeyId: string;
}
interface Listed {
  id: string;
  environment: string;
  status: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

const json = async <T>(...args: string[]): Promise<T> => {
  const r = await rpa(...args, '--json');
  assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
};

describe(`rpa passkeys on ${TEST_DIALECT}`, () => {
  let prod: Demo;
  let staging: Demo;
  before(async () => {
    const demo = await json<{ production: Demo; staging: Demo }>('demo');
    prod = demo.production;
    staging = demo.staging;
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    if (schema) await dropSchema(TEST_DATABASE_URL, schema);
  });

  it('creates a passkey with an expiry, printing it once as the admin API answers it', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const created = await json<Listed & { passkey: string; rateLimitPerMinute: number }>(
      'passkeys',
      'create',
      '--app',
      staging.clientId,
      '--api',
      'privacy',
      '--rate-limit',
      '7',
      '--expires-at',
      expiresAt,
    );
    assert.match(created.passkey, /^rpa_pk_/);
    assert.deepEqual(
      [created.environment, created.rateLimitPerMinute, created.expiresAt, created.lastUsedAt],
      ['staging', 7, expiresAt, null],
    );
    const human = await rpa('passkeys', 'create', '--app', prod.applicationId, '--api', 'response');
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /^passkey\s+rpa_pk_/m);
    assert.match(human.stdout, /^lastUsedAt\s+never$/m);
    assert.match(human.stdout, /^expiresAt\s+null$/m);
  });

  it('refuses an expiry that is not a time (usage) or not ahead, in one line', async () => {
    const usage = await rpa(
      'passkeys',
      'create',
      '--app',
      prod.clientId,
      '--api',
      'response',
      '--expires-at',
      'soon',
    );
    assert.equal(usage.code, 1, 'a usage error exits 1 like any failure');
    assert.match(usage.stderr, /ISO 8601/);
    const past = await rpa(
      'passkeys',
      'create',
      '--app',
      prod.clientId,
      '--api',
      'response',
      '--expires-at',
      '2020-01-01',
    );
    assert.equal(past.code, 1);
    assert.match(
      assertOneLineFailure(past, 'an expiry in the past'),
      /expiresAt must be a time in the future/,
    );
  });

  it('updates limits and expiry in whichever environment the passkey is, and revokes it', async () => {
    const id = staging.responsePasskeyId;
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const set = await json<Listed & { quotaPerDay: number }>(
      'passkeys',
      'update',
      id,
      '--quota',
      '70',
      '--expires-at',
      expiresAt,
    );
    assert.deepEqual([set.environment, set.quotaPerDay, set.expiresAt], ['staging', 70, expiresAt]);
    const cleared = await json<Listed>('passkeys', 'update', id, '--no-expiry');
    assert.equal(cleared.expiresAt, null);
    const revoked = await json<Listed & { quotaPerDay: number }>(
      'passkeys',
      'update',
      id,
      '--quota',
      '71',
      '--revoke',
    );
    assert.deepEqual([revoked.status, revoked.quotaPerDay], ['revoked', 71]);
    const both = assertOneLineFailure(
      await rpa('passkeys', 'update', id, '--expires-at', expiresAt, '--no-expiry'),
      '--expires-at with --no-expiry',
    );
    assert.match(both, /not both/);
    const missing = assertOneLineFailure(
      await rpa('passkeys', 'update', '00000000-0000-4000-8000-000000000000', '--quota', '1'),
      'an unknown passkey',
    );
    assert.match(missing, /no passkey/);
  });

  it('lists both environments, or one application wherever it is, with the last use', async () => {
    const all = await json<Listed[]>('passkeys', 'list');
    for (const id of [prod.responsePasskeyId, staging.privacyPasskeyId])
      assert.ok(
        all.some((p) => p.id === id),
        id,
      );
    assert.deepEqual([...new Set(all.map((p) => p.environment))].sort(), ['production', 'staging']);
    const one = await json<Listed[]>('passkeys', 'list', '--app', staging.clientId);
    assert.ok(one.length >= 2);
    assert.ok(one.every((p) => p.environment === 'staging'));
    assert.ok(one.some((p) => p.id === staging.privacyPasskeyId && p.lastUsedAt === null));
    const human = await rpa('passkeys', 'list', '--app', prod.applicationId);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /^lastUsedAt\s+never$/m);
    assert.ok(!human.stdout.includes('rpa_pk_'), 'a listing shows a passkey');
  });
});
