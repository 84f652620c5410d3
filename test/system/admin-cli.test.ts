import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildAdminServer } from '../../src/http/admin/build-admin-server.js';
import { createAdminToken } from '../../src/services/admin/create-admin-token.js';
import { type RpaResult, rpaAgainst } from '../helpers/rpa-cli.js';
import {
  createTestRuntime,
  dropSchema,
  TEST_DATABASE_URL,
  TEST_DIALECT,
  type TestRuntime,
  uniqueSchema,
} from '../helpers/test-runtime.js';

const dir = mkdtempSync(join(tmpdir(), 'rpa-admin-cli-'));
const schema = TEST_DIALECT === 'postgres' ? uniqueSchema() : undefined;
const databaseUrl = TEST_DIALECT === 'postgres' ? TEST_DATABASE_URL : `sqlite:${join(dir, 'admin.db')}`;

/** Ids, credentials and times differ between two runs of one sequence; their shape may not. */
function normalized(text: string, suffix: string): string {
  return (
    text
      .replaceAll(suffix, '<run>')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
      .replace(/\brpa_(ci|cs|pk)_[A-Za-z0-9_-]+/g, 'rpa_$1_<value>')
      .replace(/…[A-Za-z0-9_-]{4,}/g, '…<hint>')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, '<time>')
      // Who acted: the operator in process, the admin token over HTTP.
      .replace(/\b(cli:[A-Za-z0-9_.-]+|admin-token:<uuid>)/g, '<actor>')
  );
}

/**
 * An operator's onboarding of a partner, as `rpa` commands: what each prints, and its exit code.
 * Names carry `suffix`, so the sequence runs twice on one database.
 */
async function onboard(rpa: (...args: string[]) => Promise<RpaResult>, suffix: string) {
  const steps: { args: string[]; result: RpaResult }[] = [];
  const step = async (...args: string[]) => {
    const result = await rpa(...args);
    steps.push({ args, result });
    return result;
  };
  await step('clients', 'add', `Acme-${suffix}`, '--env', 'staging', '--json');
  await step('clients', 'add', `Acme-${suffix}`, '--env', 'staging');
  const app = JSON.parse(
    (
      await step(
        'apps',
        'create',
        '--name',
        `Partner ${suffix}`,
        '--clients',
        `Acme-${suffix}`,
        '--env',
        'staging',
        '--json',
      )
    ).stdout,
  ) as { clientId: string; applicationId: string };
  await step('apps', 'rotate-secret', app.clientId, '--json');
  await step('apps', 'retire-secret', app.clientId);
  const passkey = JSON.parse(
    (
      await step(
        'passkeys',
        'create',
        '--app',
        app.clientId,
        '--api',
        'response',
        '--rate-limit',
        '30',
        '--json',
      )
    ).stdout,
  ) as { id: string };
  await step('passkeys', 'update', passkey.id, '--quota', '500', '--json');
  await step('passkeys', 'update', passkey.id, '--revoke');
  await step('passkeys', 'list', '--app', app.clientId);
  await step('webhooks', 'list', '--app', app.clientId);
  await step('apps', 'revoke', app.clientId, '--json');
  await step('audit', '--target', app.applicationId);
  await step('tokens', 'rotate-key', '--json');
  await step('apps', 'revoke', 'rpa_ci_nobody');
  await step('apps', 'rotate-secret', 'rpa_cs_a-secret-in-the-wrong-place');
  return steps.map(({ args, result }) => ({
    command: normalized(args.join(' '), suffix),
    code: result.code,
    stdout: normalized(result.stdout, suffix),
    stderr: normalized(result.stderr, suffix),
  }));
}

describe(`rpa through a live admin listener on ${TEST_DIALECT}`, () => {
  let server: TestRuntime;
  let admin: FastifyInstance;
  let adminUrl: string;
  let token: string;

  before(async () => {
    server = await createTestRuntime({}, { databaseUrl, ...(schema ? { schema, keepSchema: true } : {}) });
    admin = await buildAdminServer(server.deps, { throttle: server.http.authThrottle });
    adminUrl = await admin.listen({ port: 0, host: '127.0.0.1' });
    token = (
      await createAdminToken(server.deps, {
        name: 'operator laptop',
        scopes: ['tenancy:read', 'tenancy:write', 'webhooks:read', 'keys:write', 'audit:read'],
      })
    ).value;
  });

  after(async () => {
    await admin.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
    if (schema) await dropSchema(TEST_DATABASE_URL, schema);
  });

  it('prints the same and exits the same as against the database, holding no database credentials', async () => {
    const direct = await onboard(rpaAgainst({ databaseUrl, schema }), 'direct');
    const remote = await onboard(
      rpaAgainst(
        { databaseUrl, schema },
        {
          RPA_ADMIN_URL: adminUrl,
          RPA_ADMIN_TOKEN: token,
          // Nothing listens there: every answer must come through the admin API.
          DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
        },
      ),
      'remote',
    );
    assert.deepEqual(remote, direct);
    assert.deepEqual(
      direct.map((s) => s.code),
      [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1],
    );
    assert.ok(!JSON.stringify(remote).includes(token.slice(8)));
  });

  it('records changes made through it with the admin token as their actor', async () => {
    const rows = await server.deps.store.db
      .selectFrom('audit_events')
      .select(['actor', 'action'])
      .where('action', '=', 'client.created')
      .execute();
    assert.deepEqual(rows.map((r) => r.actor.split(':')[0]).sort(), ['admin-token', 'cli']);
  });

  it('says what is wrong in one line when the listener or the token is not right', async () => {
    const noToken = await rpaAgainst({ databaseUrl, schema }, { RPA_ADMIN_URL: adminUrl })('apps', 'list');
    assert.equal(noToken.code, 1);
    assert.match(noToken.stderr, /^rpa: RPA_ADMIN_URL is set but RPA_ADMIN_TOKEN is not/);
    const badToken = await rpaAgainst(
      { databaseUrl, schema },
      { RPA_ADMIN_URL: adminUrl, RPA_ADMIN_TOKEN: 'rpa_adm_wrong' },
    )('apps', 'list');
    assert.equal(badToken.code, 1);
    assert.equal(badToken.stderr, 'rpa: The admin token is unknown, revoked or expired\n');
    const reader = (await createAdminToken(server.deps, { name: 'reader', scopes: ['tenancy:read'] })).value;
    const refused = await rpaAgainst(
      { databaseUrl, schema },
      { RPA_ADMIN_URL: adminUrl, RPA_ADMIN_TOKEN: reader },
    )('clients', 'add', 'Nope', '--env', 'staging');
    assert.equal(refused.stderr, 'rpa: this call needs the scope tenancy:write\n');
    // A change needs its own scope only: the command does not read first to find the environment.
    const writer = (await createAdminToken(server.deps, { name: 'writer', scopes: ['tenancy:write'] })).value;
    const asWriter = rpaAgainst(
      { databaseUrl, schema },
      { RPA_ADMIN_URL: adminUrl, RPA_ADMIN_TOKEN: writer },
    );
    const app = JSON.parse(
      (
        await asWriter(
          'apps',
          'create',
          '--name',
          'Writer only',
          '--clients',
          '',
          '--env',
          'staging',
          '--json',
        )
      ).stdout,
    ) as { clientId: string };
    const rotated = await asWriter('apps', 'rotate-secret', app.clientId, '--json');
    assert.equal(rotated.code, 0, rotated.stderr);
    assert.equal((await asWriter('apps', 'revoke', app.clientId)).code, 0);
  });
});
