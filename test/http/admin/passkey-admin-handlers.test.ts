import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type DemoCredentials, seedDemo } from '../../../src/services/tenancy/seed-demo.js';
import { recordPasskeyUses } from '../../../src/store/repositories/passkeys.js';
import { testClock } from '../../helpers/limit-fixtures.js';
import { createTestAdminApp, type TestAdminApp } from '../../helpers/test-admin-app.js';
import { TEST_DIALECT } from '../../helpers/test-runtime.js';

const HOUR = 3_600_000;

interface Passkey {
  id: string;
  applicationId: string;
  environment: string;
  api: string;
  hint: string;
  rateLimitPerMinute: number;
  quotaPerDay: number;
  status: string;
  default: boolean;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  passkey?: string;
}

describe(`admin API: passkeys on ${TEST_DIALECT}`, () => {
  const clock = testClock();
  let t: TestAdminApp;
  let writer: string;
  let reader: string;
  let prod: DemoCredentials;
  let staging: DemoCredentials;
  before(async () => {
    t = await createTestAdminApp({}, { clock: clock.now });
    writer = await t.bearer('tenancy:read', 'tenancy:write');
    reader = await t.bearer('tenancy:read');
    prod = await seedDemo(t.runtime.deps, { environment: 'production' });
    staging = await seedDemo(t.runtime.deps, { environment: 'staging' });
  });
  after(() => t.close());

  const call = (
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    payload?: object,
    headers: Record<string, string> = {},
  ) => t.call(writer, method, url, payload, headers);
  const create = (app: string, body: object, headers: Record<string, string> = {}) =>
    call('POST', `/production/applications/${app}/passkeys`, body, headers);
  const listAll = async (url: string): Promise<Passkey[]> => (await call('GET', url)).json().data;
  const inFuture = (ms: number) => new Date(clock.now() + ms).toISOString();

  it('issues a passkey showing it once, with its limits and expiry, and reads it back', async () => {
    const expiresAt = inFuture(24 * HOUR);
    const res = await create(prod.clientId, {
      api: 'privacy',
      name: 'ops-export',
      rateLimitPerMinute: 5,
      quotaPerDay: 50,
      expiresAt,
    });
    assert.equal(res.statusCode, 201, res.body);
    const created = res.json() as Passkey;
    assert.match(created.passkey ?? '', /^rpa_pk_/);
    assert.equal(created.hint, `…${created.passkey?.slice(-4)}`);
    assert.deepEqual(
      { ...created, id: undefined, passkey: undefined, hint: undefined },
      {
        id: undefined,
        passkey: undefined,
        hint: undefined,
        applicationId: prod.applicationId,
        environment: 'production',
        name: 'ops-export',
        api: 'privacy',
        rateLimitPerMinute: 5,
        quotaPerDay: 50,
        status: 'active',
        default: false,
        createdAt: new Date(clock.now()).toISOString(),
        expiresAt,
        revokedAt: null,
        lastUsedAt: null,
      },
    );
    const read = await call('GET', `/production/passkeys/${created.id}`, undefined, {
      authorization: reader,
    });
    assert.equal(read.statusCode, 200);
    const { passkey: _shownOnce, ...listed } = created;
    assert.deepEqual(read.json(), listed);
    assert.ok(!read.body.includes(created.passkey ?? 'rpa_pk_'), 'the passkey was shown again');
    // A name is unique among the application's unrevoked passkeys.
    const again = await create(prod.clientId, { api: 'response', name: 'ops-export' });
    assert.equal(again.statusCode, 409, again.body);
  });

  it('refuses a bad body, an application of the other environment and a token without tenancy:write', async () => {
    for (const body of [
      { api: 'graphql' },
      { api: 'response', rateLimitPerMinute: 0 },
      { api: 'response', extra: true },
      { api: 'response', expiresAt: 'tomorrow' },
      // '/' separates application and passkey in `<application>/<passkey>` keys (rpa config).
      { api: 'response', name: 'a/b' },
      { api: 'response', expiresAt: new Date(clock.now() - 1).toISOString() },
      {},
    ]) {
      const res = await create(prod.applicationId, body);
      assert.equal(res.statusCode, 400, JSON.stringify(body));
    }
    const elsewhere = await create(staging.applicationId, { api: 'response' });
    assert.equal(elsewhere.statusCode, 404);
    assert.match(elsewhere.json().detail, /no application .* in production/);
    const readOnly = await create(prod.applicationId, { api: 'response' }, { authorization: reader });
    assert.equal(readOnly.statusCode, 403);
    assert.match(String(readOnly.headers['www-authenticate']), /tenancy:write/);
    // A secret where the application belongs is refused and repeated nowhere, `instance` included,
    // with its prefix, without it, or percent-encoded.
    const random = prod.clientSecret.slice('rpa_cs_'.length);
    const encoded = prod.clientSecret.replaceAll('_', '%5F');
    for (const sent of [prod.clientSecret, random, encoded, prod.privacyPasskey.slice('rpa_pk_'.length)]) {
      const secret = await create(sent, { api: 'response' });
      assert.equal(secret.statusCode, 400, secret.body);
      assert.match(secret.json().detail, /that is a secret/);
      assert.equal(secret.json().instance, '/admin/v1/production/applications/[REDACTED]/passkeys');
      for (const part of [sent, random]) assert.ok(!secret.body.includes(part), secret.body);
    }
  });

  it('creates once per Idempotency-Key, answering a retry with the first answer', async () => {
    const before = (await listAll(`/production/passkeys?app=${prod.applicationId}`)).length;
    const key = { 'idempotency-key': 'passkey-create-0001' };
    const first = await create(prod.applicationId, { api: 'response', quotaPerDay: 9 }, key);
    assert.equal(first.statusCode, 201);
    assert.equal(first.headers['idempotent-replayed'], undefined);
    const again = await create(prod.applicationId, { api: 'response', quotaPerDay: 9 }, key);
    assert.equal(again.statusCode, 201);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(again.json(), first.json());
    const other = await create(prod.applicationId, { api: 'response', quotaPerDay: 10 }, key);
    assert.equal(other.statusCode, 422);
    assert.equal((await listAll(`/production/passkeys?app=${prod.applicationId}`)).length, before + 1);
  });

  it('changes limits and expiry, clears the expiry, and refuses what changes nothing', async () => {
    const id = prod.responsePasskeyId;
    const expiresAt = inFuture(HOUR);
    const changed = await call('PATCH', `/production/passkeys/${id}`, { quotaPerDay: 70, expiresAt });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.deepEqual([changed.json().quotaPerDay, changed.json().expiresAt], [70, expiresAt]);
    const cleared = await call('PATCH', `/production/passkeys/${id}`, { expiresAt: null });
    assert.equal(cleared.json().expiresAt, null);
    assert.equal(cleared.json().quotaPerDay, 70);
    for (const body of [
      {},
      { expiresAt: new Date(clock.now()).toISOString() },
      { quotaPerDay: -1 },
      { revoke: true },
    ])
      assert.equal(
        (await call('PATCH', `/production/passkeys/${id}`, body)).statusCode,
        400,
        JSON.stringify(body),
      );
    const readOnly = await call(
      'PATCH',
      `/production/passkeys/${id}`,
      { quotaPerDay: 1 },
      { authorization: reader },
    );
    assert.equal(readOnly.statusCode, 403);
    assert.equal((await call('GET', `/production/passkeys/${id}`)).json().quotaPerDay, 70);
  });

  it('answers 404 for a passkey of the other environment or none, and 400 for a passkey value', async () => {
    const other = staging.responsePasskeyId;
    for (const [method, url, body] of [
      ['GET', `/production/passkeys/${other}`],
      ['PATCH', `/production/passkeys/${other}`, { quotaPerDay: 1 }],
      ['POST', `/production/passkeys/${other}/revoke`],
      ['GET', '/production/passkeys/00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const res = await call(method, url, body);
      assert.equal(res.statusCode, 404, `${method} ${url}`);
      assert.equal(res.json().code, 'NOT_FOUND');
    }
    assert.equal((await call('GET', `/staging/passkeys/${other}`)).statusCode, 200);
    const value = await call('GET', `/production/passkeys/${prod.privacyPasskey}`);
    assert.equal(value.statusCode, 400);
    assert.ok(!value.json().detail.includes(prod.privacyPasskey.slice(7)), 'the passkey value was repeated');
    assert.match(value.json().detail, /passkey value, not its id/);
  });

  it('revokes at once, keeping the first revocation time when revoked again', async () => {
    const id = ((await create(prod.applicationId, { api: 'response' })).json() as Passkey).id;
    const readOnly = await call('POST', `/production/passkeys/${id}/revoke`, undefined, {
      authorization: reader,
    });
    assert.equal(readOnly.statusCode, 403);
    const revoked = await call('POST', `/production/passkeys/${id}/revoke`);
    assert.equal(revoked.statusCode, 200);
    assert.equal(revoked.json().status, 'revoked');
    assert.equal(revoked.json().revokedAt, new Date(clock.now()).toISOString());
    clock.advance(60_000);
    const again = await call('POST', `/production/passkeys/${id}/revoke`);
    assert.deepEqual(again.json(), revoked.json());
  });

  it("lists one environment's passkeys oldest first, by page, with status and last use", async () => {
    const app = (await call('POST', '/staging/applications', { name: 'Listed', clientNames: [] })).json() as {
      applicationId: string;
      clientId: string;
    };
    const ids: string[] = [];
    for (const api of ['response', 'privacy', 'response'] as const) {
      clock.advance(1000);
      const res = await call('POST', `/staging/applications/${app.applicationId}/passkeys`, {
        api,
        expiresAt: inFuture(10 * 60_000),
      });
      ids.push((res.json() as Passkey).id);
    }
    await call('PATCH', `/staging/passkeys/${ids[0]}`, { expiresAt: null });
    await call('POST', `/staging/passkeys/${ids[1]}/revoke`);
    await recordPasskeyUses(t.runtime.deps.store.db, [{ passkeyId: ids[0] as string, at: clock.now() }]);
    clock.advance(11 * 60_000);

    const seen = (await t.pages<Passkey>(reader, `/staging/passkeys?app=${app.clientId}&limit=2`)).items;
    assert.deepEqual(
      seen.map((p) => [p.id, p.status, p.default, p.lastUsedAt === null]),
      [
        [ids[0], 'active', true, false],
        [ids[1], 'revoked', false, true],
        [ids[2], 'expired', false, true],
      ],
    );

    const everyone = await listAll('/staging/passkeys?limit=1000');
    assert.ok(everyone.some((p) => p.id === staging.responsePasskeyId));
    assert.ok(everyone.every((p) => p.environment === 'staging'));
    assert.equal((await call('GET', `/production/passkeys?app=${app.applicationId}`)).statusCode, 404);
    assert.equal((await call('GET', '/staging/passkeys?cursor=forged')).statusCode, 400);
    assert.equal((await call('GET', '/staging/passkeys?limit=0')).statusCode, 400);
    assert.equal((await call('GET', `/staging/passkeys?app=${prod.clientSecret}`)).statusCode, 400);
  });
});
