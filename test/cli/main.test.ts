import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { rpaAgainst } from '../helpers/rpa-cli.js';
import {
  createTestApp,
  dropSchema,
  TEST_DATABASE_URL,
  TEST_DIALECT,
  uniqueSchema,
} from '../helpers/test-runtime.js';

const dir = mkdtempSync(join(tmpdir(), 'rpa-cli-'));
const schema = TEST_DIALECT === 'postgres' ? uniqueSchema() : undefined;
const databaseUrl = TEST_DIALECT === 'postgres' ? TEST_DATABASE_URL : `sqlite:${join(dir, 'cli.db')}`;

const rpa = rpaAgainst({ databaseUrl, schema });

describe(`rpa CLI on ${TEST_DIALECT}`, () => {
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    if (schema) await dropSchema(TEST_DATABASE_URL, schema);
  });

  it('prints help and exits 0', () => {
    const r = rpa('--help');
    assert.equal(r.code, 0);
    for (const c of ['serve', 'migrate', 'clients', 'apps', 'passkeys', 'reviews', 'demo'])
      assert.match(r.stdout, new RegExp(c));
  });

  it('prints the OpenAPI document the server serves, without the configured database', async () => {
    // An unreachable database: the document needs none, so a build machine can write it.
    const r = rpaAgainst({ databaseUrl: 'postgres://nobody@127.0.0.1:1/none', schema: undefined })('openapi');
    assert.equal(r.code, 0, r.stderr);
    const printed = JSON.parse(r.stdout) as { openapi: string; paths: Record<string, unknown> };
    const t = await createTestApp();
    try {
      const served = (await t.app.inject({ url: '/openapi.json', headers: { host: 'localhost' } })).json();
      assert.equal(printed.openapi, '3.1.0');
      assert.deepEqual(printed, served);
    } finally {
      await t.close();
    }
  });

  it('migrates, then seeds a demo tenant in both environments with --json', () => {
    const m = rpa('migrate', '--json');
    assert.equal(m.code, 0, m.stderr);
    const r = rpa('demo', '--json');
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    for (const env of ['production', 'staging']) {
      assert.equal(out[env].environment, env);
      assert.match(out[env].clientId, /^rpa_ci_/);
      assert.match(out[env].clientSecret, /^rpa_cs_[A-Za-z0-9_-]{43}$/);
      assert.match(out[env].responsePasskey, /^rpa_pk_/);
      assert.match(out[env].privacyPasskey, /^rpa_pk_/);
      assert.deepEqual(out[env].clientNames, ['Acme-DE_DE', 'Acme-EN_GB']);
    }
  });

  it('creates clients, applications and passkeys, and rotates secrets', () => {
    assert.equal(rpa('clients', 'add', 'Shop-FR_FR', '--json').code, 0);
    const app = JSON.parse(
      rpa('apps', 'create', '--name', 'Shop', '--clients', 'Shop-FR_FR', '--json').stdout,
    );
    assert.deepEqual(app.clientNames, ['Shop-FR_FR']);
    const pk = rpa(
      'passkeys',
      'create',
      '--app',
      app.applicationId,
      '--api',
      'response',
      '--rate-limit',
      '5',
      '--quota',
      '50',
      '--json',
    );
    assert.equal(pk.code, 0, pk.stderr);
    const key = JSON.parse(pk.stdout);
    assert.equal(key.rateLimitPerMinute, 5);
    assert.equal(key.quotaPerDay, 50);
    const upd = JSON.parse(rpa('passkeys', 'update', key.id, '--quota', '70', '--json').stdout);
    assert.equal(upd.quotaPerDay, 70);
    const rot = rpa('apps', 'rotate-secret', app.applicationId, '--json');
    assert.equal(rot.code, 0, rot.stderr);
    assert.notEqual(JSON.parse(rot.stdout).clientSecret, app.clientSecret);
    assert.equal(rpa('apps', 'rotate-secret', app.applicationId).code, 1, 'a third secret is refused');
    assert.equal(rpa('apps', 'retire-secret', app.applicationId, '--json').code, 0);
    // Listings never show secrets or passkeys.
    const listing = rpa('apps', 'list', '--json').stdout + rpa('passkeys', 'list', '--json').stdout;
    assert.ok(!listing.includes(app.clientSecret));
    assert.ok(!listing.includes(key.passkey));
  });

  it('adds a token signing key, retiring the older ones later or at once', () => {
    const first = rpa('tokens', 'rotate-key', '--json');
    assert.equal(first.code, 0, first.stderr);
    const out = JSON.parse(first.stdout);
    assert.match(out.keyId, /^[0-9a-f-]{36}$/);
    assert.ok(Date.parse(out.previousKeysRetireAt) > Date.now());
    const now = rpa('tokens', 'rotate-key', '--retire-previous', '--json');
    assert.equal(now.code, 0, now.stderr);
    assert.notEqual(JSON.parse(now.stdout).keyId, out.keyId);
    assert.ok(Date.parse(JSON.parse(now.stdout).previousKeysRetireAt) <= Date.now());
  });

  it('imports NDJSON reviews and reports bad lines without their content', () => {
    const file = join(dir, 'reviews.ndjson');
    writeFileSync(
      file,
      [
        JSON.stringify({
          id: 'imp-1',
          clientName: 'Shop-FR_FR',
          rating: 4,
          author: { emailAddress: 'A@Example.com' },
        }),
        '{not json',
        JSON.stringify({ id: 'imp-2', clientName: 'Nope', rating: 4 }),
        JSON.stringify({
          id: 'imp-3',
          clientName: 'Shop-FR_FR',
          author: { emailAddress: 'secret-bad-email' },
        }),
        JSON.stringify({ id: 'imp-1', clientName: 'Shop-FR_FR' }),
      ].join('\n'),
    );
    const r = rpa('reviews', 'import', file, '--json');
    // Some lines were rejected: the command says so in its exit code too.
    assert.equal(r.code, 1, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.imported, 1);
    assert.equal(out.rejected, 4);
    assert.deepEqual(
      out.errors.map((e: { line: number }) => e.line),
      [2, 3, 4, 5],
    );
    assert.ok(!r.stdout.includes('secret-bad-email'));
  });

  it('fails with one line and a non-zero code on bad input', () => {
    for (const args of [
      ['clients', 'add', 'bad name!'],
      ['passkeys', 'create', '--app', 'nope', '--api', 'response'],
      ['passkeys', 'create', '--app', 'x', '--api', 'graphql'],
      ['apps', 'create', '--name', 'X', '--clients', 'Unknown-Client'],
      ['reviews', 'import', join(dir, 'missing.ndjson')],
      ['clients', 'add', 'X', '--env', 'qa'],
    ]) {
      const r = rpa(...args);
      assert.notEqual(r.code, 0, args.join(' '));
      assert.equal(r.stderr.trim().split('\n').length, 1, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /^rpa: /);
    }
  });
});
