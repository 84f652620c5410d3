import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { assertOneLineFailure, rpaAgainst } from '../../helpers/rpa-cli.js';
import { dropSchema, TEST_DATABASE_URL, TEST_DIALECT, uniqueSchema } from '../../helpers/test-runtime.js';

const dir = mkdtempSync(join(tmpdir(), 'rpa-admin-tokens-'));
const schema = TEST_DIALECT === 'postgres' ? uniqueSchema() : undefined;
const databaseUrl = TEST_DIALECT === 'postgres' ? TEST_DATABASE_URL : `sqlite:${join(dir, 'cli.db')}`;
const rpa = rpaAgainst({ databaseUrl, schema });

describe(`rpa admin-tokens on ${TEST_DIALECT}`, () => {
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    if (schema) await dropSchema(TEST_DATABASE_URL, schema);
  });

  it('creates a token, prints it once, lists it without it, and revokes it', async () => {
    const created = await rpa(
      'admin-tokens',
      'create',
      '--name',
      'onboarding',
      '--scopes',
      'tenancy:read,tenancy:write',
      '--expires-in',
      '90d',
      '--json',
    );
    assert.equal(created.code, 0, created.stderr);
    const token = JSON.parse(created.stdout);
    assert.match(token.token, /^rpa_adm_/);
    assert.equal(token.scopes, 'tenancy:read tenancy:write');
    assert.equal(Date.parse(token.expiresAt) - Date.parse(token.createdAt), 90 * 86_400_000);

    const human = await rpa('admin-tokens', 'create', '--name', 'audit reader', '--scopes', 'audit:read');
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /^token\s+rpa_adm_/m);
    assert.equal(human.stderr, 'The admin token is shown only once; store it now.\n');

    const listed = await rpa('admin-tokens', 'list', '--json');
    assert.equal(listed.code, 0, listed.stderr);
    assert.ok(!listed.stdout.includes('rpa_adm_'), 'a list shows a token value');
    assert.deepEqual(
      JSON.parse(listed.stdout).map((t: { name: string; state: string }) => [t.name, t.state]),
      [
        ['onboarding', 'active'],
        ['audit reader', 'active'],
      ],
    );

    assert.equal((await rpa('admin-tokens', 'revoke', token.id)).code, 0);
    const after = JSON.parse((await rpa('admin-tokens', 'list', '--json')).stdout);
    assert.equal(after[0].state, 'revoked');
  });

  it('refuses unknown scopes, a bad lifetime and a token given as an id, each in one line', async () => {
    const unknown = assertOneLineFailure(
      await rpa('admin-tokens', 'create', '--name', 'x', '--scopes', 'tenancy:*'),
      'unknown scope',
    );
    assert.match(unknown, /unknown scope tenancy:\*; one of tenancy:read, /);
    assertOneLineFailure(
      await rpa('admin-tokens', 'create', '--name', 'x', '--scopes', 'audit:read', '--expires-in', '2y'),
      'bad lifetime',
    );
    const value = JSON.parse(
      (await rpa('admin-tokens', 'create', '--name', 'leaked', '--scopes', 'audit:read', '--json')).stdout,
    ).token as string;
    const r = await rpa('admin-tokens', 'revoke', value);
    assertOneLineFailure(r, 'token as id');
    assert.ok(!r.stderr.includes(value.slice(8)), 'the token was repeated');
  });

  it('refuses to work through the admin API: tokens are made with database access only', async () => {
    const r = await rpaAgainst({ databaseUrl, schema }, { RPA_ADMIN_URL: 'http://127.0.0.1:1' })(
      'admin-tokens',
      'create',
      '--name',
      'x',
      '--scopes',
      'audit:read',
    );
    assert.match(assertOneLineFailure(r, 'through the API'), /database access only: unset RPA_ADMIN_URL/);
  });
});
