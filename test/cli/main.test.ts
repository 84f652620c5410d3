import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/main.js';
import { assertOneLineFailure, rpaAgainst, rpaNodeArgs } from '../helpers/rpa-cli.js';
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

  it('prints help and exits 0', async () => {
    const r = await rpa('--help');
    assert.equal(r.code, 0);
    for (const c of ['serve', 'migrate', 'clients', 'apps', 'passkeys', 'reviews', 'demo'])
      assert.match(r.stdout, new RegExp(c));
  });

  it('exits 1 on a usage error: 2 is `rpa config diff`’s "something would change"', async () => {
    for (const argv of [
      ['config', 'diff', 'tenancy.yaml', '--prnue'],
      ['config', 'apply', 'tenancy.yaml', '--max-deletes', 'x'],
      ['clients', 'add'],
      ['no-such-command'],
    ]) {
      const r = await rpa(...argv);
      assert.equal(r.code, 1, `${argv.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /error/);
    }
  });

  it('prints the OpenAPI document the server serves, without the configured database', async () => {
    // An unreachable database: the document needs none, so a build machine can write it.
    const r = await rpaAgainst({ databaseUrl: 'postgres://nobody@127.0.0.1:1/none', schema: undefined })(
      'openapi',
    );
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

  it('migrates, then seeds a demo tenant in both environments with --json', async () => {
    const m = await rpa('migrate', '--json');
    assert.equal(m.code, 0, m.stderr);
    const r = await rpa('demo', '--json');
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

  it('creates clients, applications and passkeys, and rotates secrets', async () => {
    assert.equal((await rpa('clients', 'add', 'Shop-FR_FR', '--json')).code, 0);
    const app = JSON.parse(
      (await rpa('apps', 'create', '--name', 'Shop', '--clients', 'Shop-FR_FR', '--json')).stdout,
    );
    assert.deepEqual(app.clientNames, ['Shop-FR_FR']);
    const pk = await rpa(
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
    const upd = JSON.parse((await rpa('passkeys', 'update', key.id, '--quota', '70', '--json')).stdout);
    assert.equal(upd.quotaPerDay, 70);
    const rot = await rpa('apps', 'rotate-secret', app.applicationId, '--json');
    assert.equal(rot.code, 0, rot.stderr);
    assert.notEqual(JSON.parse(rot.stdout).clientSecret, app.clientSecret);
    assert.equal(
      (await rpa('apps', 'rotate-secret', app.applicationId)).code,
      1,
      'a third secret is refused',
    );
    assert.equal((await rpa('apps', 'retire-secret', app.applicationId, '--json')).code, 0);
    // Listings never show secrets or passkeys.
    const listing =
      (await rpa('apps', 'list', '--json')).stdout + (await rpa('passkeys', 'list', '--json')).stdout;
    assert.ok(!listing.includes(app.clientSecret));
    assert.ok(!listing.includes(key.passkey));
  });

  it('adds a token signing key, retiring the older ones later or at once', async () => {
    const first = await rpa('tokens', 'rotate-key', '--json');
    assert.equal(first.code, 0, first.stderr);
    const out = JSON.parse(first.stdout);
    assert.match(out.keyId, /^[0-9a-f-]{36}$/);
    assert.ok(Date.parse(out.previousKeysRetireAt) > Date.now());
    const now = await rpa('tokens', 'rotate-key', '--retire-previous', '--json');
    assert.equal(now.code, 0, now.stderr);
    assert.notEqual(JSON.parse(now.stdout).keyId, out.keyId);
    assert.ok(Date.parse(JSON.parse(now.stdout).previousKeysRetireAt) <= Date.now());
  });

  it('imports NDJSON reviews and reports bad lines without their content', async () => {
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
    const r = await rpa('reviews', 'import', file, '--json');
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

  it('fails with one line and a non-zero code on bad input', async () => {
    for (const args of [
      ['clients', 'add', 'bad name!'],
      ['passkeys', 'create', '--app', 'nope', '--api', 'response'],
      ['passkeys', 'create', '--app', 'x', '--api', 'graphql'],
      ['apps', 'create', '--name', 'X', '--clients', 'Unknown-Client'],
      ['reviews', 'import', join(dir, 'missing.ndjson')],
      ['clients', 'add', 'X', '--env', 'qa'],
    ]) {
      const r = await rpa(...args);
      assert.notEqual(r.code, 0, args.join(' '));
      assert.equal(r.stderr.trim().split('\n').length, 1, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /^rpa: /);
    }
  });

  it('ends quietly with 0 when the reader of its output goes away (`rpa openapi | head -1`)', async () => {
    const child = spawn(process.execPath, rpaNodeArgs(['openapi']), {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LOG_LEVEL: '' },
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    // The document is far larger than a pipe's buffer: the rest is written to a closed pipe.
    child.stdout.once('data', () => child.stdout.destroy());
    const [code] = await once(child, 'close');
    assert.equal(stderr, '');
    assert.equal(code, 0);
  });

  it('names DATABASE_URL and the host it cannot connect to, never the password', async () => {
    const r = await rpaAgainst({
      databaseUrl: 'postgres://nobody:hunter2@127.0.0.1:1/db',
      schema: undefined,
    })('apps', 'list');
    const line = assertOneLineFailure(r, 'an unreachable PostgreSQL');
    assert.equal(line, 'rpa: DATABASE_URL: cannot connect to 127.0.0.1:1 (ECONNREFUSED)');
    assert.ok(!r.stderr.includes('hunter2'));
  });

  it('warns in one line naming REDIS_URL and its host when a change cannot be announced', async () => {
    const app = JSON.parse(
      (await rpa('apps', 'create', '--name', 'Quiet', '--clients', 'Shop-FR_FR', '--json')).stdout,
    );
    const r = await rpaAgainst({ databaseUrl, schema }, { REDIS_URL: 'redis://:hunter2@127.0.0.1:1' })(
      'apps',
      'revoke',
      app.applicationId,
    );
    // Redis only makes the change reach servers at once; without it they see it within TOKEN_CACHE_TTL_MS.
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(
      lines[0] ?? '',
      /^rpa: warning: tenancy change not announced; .* \(REDIS_URL: cannot connect to 127\.0\.0\.1:1\b/,
    );
    assert.ok(!r.stderr.includes('hunter2'));
  });

  it('warns in one line naming REDIS_SENTINELS and the master when no Sentinel answers', async () => {
    const app = JSON.parse(
      (await rpa('apps', 'create', '--name', 'Hushed', '--clients', 'Shop-FR_FR', '--json')).stdout,
    );
    const r = await rpaAgainst(
      { databaseUrl, schema },
      {
        REDIS_URL: 'redis://:hunter2@127.0.0.1:1',
        REDIS_SENTINELS: '127.0.0.1:1',
        REDIS_SENTINEL_MASTER: 'rpa',
      },
    )('apps', 'revoke', app.applicationId);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(
      lines[0] ?? '',
      /^rpa: warning: tenancy change not announced; .* \(REDIS_SENTINELS: cannot reach the primary of rpa\b/,
    );
    assert.ok(!r.stderr.includes('hunter2'));
  });

  it('names DATABASE_URL when the SQLite file cannot be created', async () => {
    const notADirectory = join(dir, 'a-file');
    writeFileSync(notADirectory, '');
    const r = await rpaAgainst({ databaseUrl: `sqlite:${join(notADirectory, 'x.db')}`, schema: undefined })(
      'apps',
      'list',
    );
    const line = assertOneLineFailure(r, 'a SQLite path that cannot be written');
    assert.match(line, new RegExp(`^rpa: DATABASE_URL: cannot open ${notADirectory}/x\\.db \\(`));
  });

  it('states each default once in help: commander adds "(default: ...)" itself', async () => {
    const doubled: string[] = [];
    const visit = (cmd: Command, path: string) => {
      for (const o of [...cmd.options, ...cmd.registeredArguments])
        if (o.defaultValue !== undefined && /\bdefault\b/i.test(o.description))
          doubled.push(`${path}: ${'flags' in o ? o.flags : o.name()}`);
      for (const c of cmd.commands) visit(c, `${path} ${c.name()}`);
    };
    visit(buildProgram(), 'rpa');
    assert.deepEqual(doubled, []);
    const help = (await rpa('audit', '--help')).stdout;
    assert.equal(help.match(/default/g)?.length, 1, help);
  });
});
