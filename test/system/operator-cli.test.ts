import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/main.js';
import { assertOneLineFailure, rpaAgainst, rpaProcessAgainst } from '../helpers/rpa-cli.js';
import { dropSchema, TEST_DATABASE_URL, TEST_DIALECT, uniqueSchema } from '../helpers/test-runtime.js';

const dir = mkdtempSync(join(tmpdir(), 'rpa-operator-'));
const schema = TEST_DIALECT === 'postgres' ? uniqueSchema() : undefined;
const databaseUrl = TEST_DIALECT === 'postgres' ? TEST_DATABASE_URL : `sqlite:${join(dir, 'cli.db')}`;
const rpa = rpaAgainst({ databaseUrl, schema });

interface DemoOut {
  applicationId: string;
  clientId: string;
  clientSecret: string;
  responsePasskey: string;
  responsePasskeyId: string;
  privacyPasskey: string;
  privacyPasskeyId: string;
}

function walk(command: Command, path: string[] = []): { path: string; description: string }[] {
  return command.commands.flatMap((c) => {
    const p = [...path, c.name()];
    return [{ path: p.join(' '), description: c.description() }, ...walk(c, p)];
  });
}

describe(`rpa for operators on ${TEST_DIALECT}`, () => {
  let demo: DemoOut;

  before(async () => {
    const r = await rpa('demo', '--json');
    assert.equal(r.code, 0, r.stderr);
    demo = JSON.parse(r.stdout).production as DemoOut;
  });

  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    if (schema) await dropSchema(TEST_DATABASE_URL, schema);
  });

  it('prints its version, as a process of its own', async () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const r = rpaProcessAgainst({ databaseUrl, schema })(flag);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), pkg.version);
    }
  });

  it('describes every command', async () => {
    const commands = walk(buildProgram());
    assert.ok(commands.length > 15, 'the whole tree was walked');
    const bare = commands.filter((c) => c.description.trim() === '').map((c) => c.path);
    assert.deepEqual(bare, []);
  });

  it('prints the ids of the demo passkeys, which passkeys update accepts', async () => {
    assert.match(demo.responsePasskeyId, /^[0-9a-f-]{36}$/);
    assert.match(demo.privacyPasskeyId, /^[0-9a-f-]{36}$/);
    const r = await rpa('passkeys', 'update', demo.responsePasskeyId, '--rate-limit', '1200', '--json');
    assert.equal(r.code, 0, r.stderr);
    const updated = JSON.parse(r.stdout);
    assert.equal(updated.id, demo.responsePasskeyId);
    assert.equal(updated.api, 'response');
    assert.equal(updated.rateLimitPerMinute, 1200);
  });

  it('refuses passkeys update without a change, in one clear line', async () => {
    const line = assertOneLineFailure(
      await rpa('passkeys', 'update', demo.responsePasskeyId),
      'passkeys update without flags',
    );
    assert.match(line, /--rate-limit.*--quota.*--revoke/);
    assert.doesNotMatch(line, /syntax|sql|where/i);
  });

  it('never echoes a credential given where an id belongs', async () => {
    const cases: [string, string[]][] = [
      [demo.responsePasskey, ['passkeys', 'update', demo.responsePasskey, '--quota', '10']],
      [demo.clientSecret, ['apps', 'revoke', demo.clientSecret]],
      [demo.clientSecret, ['passkeys', 'list', '--app', demo.clientSecret]],
      [demo.privacyPasskey, ['passkeys', 'create', '--app', demo.privacyPasskey, '--api', 'response']],
      [demo.clientSecret, ['apps', 'rotate-secret', demo.clientSecret]],
      // Refused by the argument parser before any command runs.
      [
        demo.privacyPasskey,
        ['passkeys', 'create', '--app', demo.applicationId, '--api', demo.privacyPasskey],
      ],
      [demo.clientSecret, ['apps', demo.clientSecret]],
    ];
    for (const [secret, args] of cases) {
      const r = await rpa(...args);
      const what = args.slice(0, 2).join(' ');
      const line = assertOneLineFailure(r, what);
      assert.ok(!r.stderr.includes(secret) && !r.stdout.includes(secret), `${what} echoed the credential`);
      assert.ok(!line.includes(secret.slice(7, 20)), `${what} echoed part of the credential`);
      assert.match(line, /secret|passkey value|rpa_(cs|pk)_…/i, `${what}: ${line}`);
    }
  });

  it('takes an application by its id or by its client id everywhere', async () => {
    const byId = JSON.parse((await rpa('passkeys', 'list', '--app', demo.applicationId, '--json')).stdout);
    const byClientId = await rpa('passkeys', 'list', '--app', demo.clientId, '--json');
    assert.equal(byClientId.code, 0, byClientId.stderr);
    assert.deepEqual(JSON.parse(byClientId.stdout), byId);
    assert.equal(byId.length, 2);

    const created = await rpa('passkeys', 'create', '--app', demo.clientId, '--api', 'privacy', '--json');
    assert.equal(created.code, 0, created.stderr);
    assert.equal(JSON.parse(created.stdout).applicationId, demo.applicationId);

    const rotated = await rpa('apps', 'rotate-secret', demo.clientId, '--json');
    assert.equal(rotated.code, 0, rotated.stderr);
    const { secretId } = JSON.parse(rotated.stdout) as { secretId: string };
    const retired = await rpa('apps', 'retire-secret', demo.clientId, '--secret', secretId, '--json');
    assert.equal(retired.code, 0, retired.stderr);
    assert.equal(JSON.parse(retired.stdout).applicationId, demo.applicationId);

    const revoked = await rpa('apps', 'revoke', demo.clientId, '--json');
    assert.equal(revoked.code, 0, revoked.stderr);
    const after = JSON.parse(revoked.stdout) as { applicationId: string; status: string; revokedAt: string };
    assert.deepEqual([after.applicationId, after.status], [demo.applicationId, 'revoked']);
    assert.ok(Date.parse(after.revokedAt) > 0);
    const listed = JSON.parse((await rpa('apps', 'list', '--json')).stdout) as {
      applicationId: string;
      status: string;
    }[];
    assert.equal(listed.find((a) => a.applicationId === demo.applicationId)?.status, 'revoked');
    // Found, but revoked already: said so, not taken for an application of the other environment.
    const again = assertOneLineFailure(await rpa('apps', 'revoke', demo.clientId), 'revoked twice');
    assert.match(again, /no active application/);
  });

  it('says so when no application has the id or client id given', async () => {
    for (const args of [
      ['passkeys', 'list', '--app', 'rpa_ci_doesnotexist'],
      ['apps', 'revoke', 'rpa_ci_doesnotexist'],
      ['passkeys', 'list', '--app', '00000000-0000-4000-8000-000000000000'],
    ]) {
      const line = assertOneLineFailure(await rpa(...args), args.join(' '));
      assert.match(line, /no application/);
    }
  });

  it('lists applications with the ids of their active secrets', async () => {
    const staging = JSON.parse((await rpa('demo', '--json')).stdout).staging as DemoOut;
    const rotated = JSON.parse(
      (await rpa('apps', 'rotate-secret', staging.applicationId, '--json')).stdout,
    ) as {
      secretId: string;
    };
    const apps = JSON.parse((await rpa('apps', 'list', '--json')).stdout) as {
      applicationId: string;
      secretIds: string[];
    }[];
    const app = apps.find((a) => a.applicationId === staging.applicationId);
    assert.ok(app);
    assert.equal(app.secretIds.length, 2);
    assert.ok(app.secretIds.includes(rotated.secretId));
    const human = await rpa('apps', 'list');
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, new RegExp(rotated.secretId));
    assert.ok(!human.stdout.includes('rpa_cs_'), 'no secret value in the listing');
  });

  it('reads the audit trail of what operators did, with filters', async () => {
    const r = await rpa('audit', '--json', '--limit', '1000');
    assert.equal(r.code, 0, r.stderr);
    const events = JSON.parse(r.stdout) as {
      actor: string;
      action: string;
      targetId: string;
      occurredAt: string;
      details: Record<string, unknown>;
    }[];
    const user = userInfo().username;
    const created = events.find(
      (e) => e.action === 'application.created' && e.targetId === demo.applicationId,
    );
    assert.ok(created, 'the demo application was recorded');
    assert.equal(created.actor, `cli:${user}`);
    assert.ok(!Number.isNaN(Date.parse(created.occurredAt)));
    const times = events.map((e) => Date.parse(e.occurredAt));
    assert.deepEqual(
      times,
      times.toSorted((a, b) => a - b),
      'oldest first',
    );
    assert.ok(events.some((e) => e.action === 'passkey.updated' && e.targetId === demo.responsePasskeyId));
    assert.ok(!r.stdout.includes('rpa_cs_') && !r.stdout.includes('rpa_pk_'), 'no credential in the trail');

    const revoked = JSON.parse((await rpa('audit', '--json', '--action', 'application.revoked')).stdout);
    assert.deepEqual(
      revoked.map((e: { targetId: string }) => e.targetId),
      [demo.applicationId],
    );
    const about = JSON.parse((await rpa('audit', '--json', '--target', demo.responsePasskeyId)).stdout);
    assert.deepEqual(
      about.map((e: { action: string }) => e.action),
      ['passkey.created', 'passkey.updated'],
    );
    assert.deepEqual(JSON.parse((await rpa('audit', '--json', '--since', '2999-01-01')).stdout), []);
    assert.ok(JSON.parse((await rpa('audit', '--json', '--since', '1h')).stdout).length > 0);
    assert.equal(JSON.parse((await rpa('audit', '--json', '--limit', '2')).stdout).length, 2);

    const human = await rpa('audit', '--target', demo.applicationId);
    assert.equal(human.code, 0, human.stderr);
    assert.match(
      human.stdout,
      new RegExp(`cli:${user}  application\\.created  application ${demo.applicationId}`),
    );
    assertOneLineFailure(await rpa('audit', '--since', 'yesterday'), 'audit --since yesterday');
  });

  it('ignores the files the README tells people to write in the checkout', (t) => {
    const inGit = spawnSync('git', ['rev-parse', '--is-inside-work-tree'], { encoding: 'utf8' });
    if (inGit.status !== 0) {
      t.skip('not a git checkout');
      return;
    }
    const readme = readFileSync('README.md', 'utf8');
    const written = [...readme.matchAll(/(?:>|-o|--out)\s+([\w.-]+\.(?:json|csv|ndjson|zip))\b/g)].map(
      (m) => m[1] as string,
    );
    assert.ok(written.includes('demo.json') && written.includes('export.json'), written.join(', '));
    for (const file of written) {
      const r = spawnSync('git', ['check-ignore', '-q', file]);
      assert.equal(r.status, 0, `${file} is not ignored`);
    }
  });
});
