import assert from 'node:assert/strict';
import { hash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { AdminScope } from '../../../src/domain/admin-scope.js';
import { identifierHash } from '../../../src/domain/identifiers.js';
import { recordAudit } from '../../../src/services/audit/record-audit.js';
import { createPrivacyRequest } from '../../../src/services/privacy/create-privacy-request.js';
import { createApplication } from '../../../src/services/tenancy/create-application.js';
import {
  drainPrivacyQueue,
  importReviewsBy,
  type PrivacyTenant,
  seedPrivacyTenant,
} from '../../helpers/privacy-fixtures.js';
import { createTestAdminApp } from '../../helpers/test-admin-app.js';
import { TEST_DIALECT } from '../../helpers/test-runtime.js';

const START = Date.parse('2026-11-28T09:00:00.000Z');

/** The admin listener with a clock the test moves, and calls with a token of chosen scopes. */
async function adminApp() {
  let now = START;
  const t = await createTestAdminApp({}, { clock: () => now });
  const tokens = new Map<string, string>();
  const auth = async (scopes: AdminScope[]) => {
    const key = scopes.join(' ');
    if (!tokens.has(key)) tokens.set(key, await t.bearer(...scopes));
    return tokens.get(key) as string;
  };
  return {
    t,
    tick: (ms = 1000) => {
      now += ms;
    },
    now: () => now,
    async call(
      scopes: AdminScope[],
      method: 'GET' | 'POST',
      url: string,
      payload?: object,
      headers: Record<string, string> = {},
    ) {
      return t.call(await auth(scopes), method, url, payload, headers);
    },
    /** Every item of a list, following `next` links. */
    async everyItem<T>(scopes: AdminScope[], url: string): Promise<T[]> {
      return (await t.pages<T>(await auth(scopes), url)).items;
    },
  };
}

type Admin = Awaited<ReturnType<typeof adminApp>>;

const ALICE = { name: 'Alice Example', authorId: 'alice-42', emailAddress: 'alice.secret@example.com' };
const BOB = { name: 'Bob Example', authorId: 'bob-7', emailAddress: 'bob.hidden@example.com' };

describe(`admin API: privacy requests across applications on ${TEST_DIALECT}`, () => {
  let admin: Admin;
  let tenant: PrivacyTenant;
  let second: string;
  const read: AdminScope[] = ['privacy:read'];
  // Request ids, oldest first, and the application that filed each.
  const ids: string[] = [];
  const filedBy = new Map<string, string>();

  before(async () => {
    admin = await adminApp();
    const deps = admin.t.runtime.deps;
    tenant = await seedPrivacyTenant(deps);
    await seedPrivacyTenant(deps, 'staging');
    second = (
      await createApplication(deps, {
        environment: 'production',
        name: 'Second',
        clientNames: ['Acme-DE_DE'],
      })
    ).application.id;
    const file = async (type: 'forget' | 'access', applicationId: string, identifiers: object) => {
      const { id } = await createPrivacyRequest(deps, {
        type,
        environment: 'production',
        applicationId,
        identifiers,
      });
      filedBy.set(id, applicationId);
      return id;
    };
    admin.tick();
    ids.push(await file('forget', tenant.applicationId, { emailAddress: ALICE.emailAddress }));
    await drainPrivacyQueue(deps);
    admin.tick();
    // Two at the same instant: the id orders them.
    const sameInstant = [
      await file('access', second, { authorId: BOB.authorId }),
      await file('access', tenant.applicationId, { emailAddress: BOB.emailAddress }),
    ];
    ids.push(...sameInstant.sort());
  });
  after(() => admin.t.close());

  it('lists every application of the environment oldest first, without whom the requests name', async () => {
    const res = await admin.call(read, 'GET', '/production/privacy-requests');
    assert.equal(res.statusCode, 200, res.body);
    const { data, next } = res.json();
    assert.equal(next, null);
    assert.deepEqual(
      data.map((r: { id: string }) => r.id),
      ids,
    );
    const [first] = data;
    assert.deepEqual(first, {
      id: ids[0],
      type: 'forget',
      status: 'COMPLETED',
      applicationId: tenant.applicationId,
      clientNames: ['Acme-DE_DE', 'Acme-EN_GB'],
      submittedAt: new Date(START + 1000).toISOString(),
      dueAt: first.dueAt,
      completedAt: first.completedAt,
    });
    assert.ok(Date.parse(first.dueAt) > START && first.completedAt !== null);
    assert.deepEqual(
      data.map((r: { applicationId: string }) => r.applicationId),
      ids.map((id) => filedBy.get(id)),
    );
    const bobs = data.find((r: { applicationId: string }) => r.applicationId === second);
    assert.deepEqual(bobs.clientNames, ['Acme-DE_DE']);
    const hashes = await admin.t.runtime.deps.store.db
      .selectFrom('privacy_request_identifiers')
      .select(['value_hash', 'masked_value'])
      .execute();
    assert.ok(hashes.length > 0);
    for (const leak of [
      ALICE.emailAddress,
      BOB.emailAddress,
      BOB.authorId,
      'alice',
      'bob',
      ...hashes.flatMap((h) => [h.value_hash, h.masked_value ?? 'no mask']),
    ])
      assert.ok(!res.body.toLowerCase().includes(leak.toLowerCase()), `the list shows ${leak}`);
  });

  it('filters by type, status and application, and pages either way without skipping or repeating', async () => {
    const listed = async (query: string) =>
      (await admin.everyItem<{ id: string }>(read, `/production/privacy-requests?${query}`)).map((r) => r.id);
    assert.deepEqual(await listed('type=forget'), [ids[0]]);
    assert.deepEqual(await listed('status=PENDING'), ids.slice(1));
    assert.deepEqual(
      await listed(`applicationId=${second}`),
      ids.filter((id) => filedBy.get(id) === second),
    );
    for (const url of [
      '/production/privacy-requests?applicationId=nobody',
      `/staging/privacy-requests?applicationId=${second}`,
    ]) {
      const missing = await admin.call(read, 'GET', url);
      assert.equal(missing.statusCode, 404, url);
    }
    assert.deepEqual(await listed('limit=1'), ids);
    assert.deepEqual(await listed('order=newest'), [...ids].reverse());
    assert.deepEqual(await listed('order=newest&limit=1'), [...ids].reverse());
    assert.deepEqual(await listed('type=access&status=PENDING&limit=1'), ids.slice(1));
    const staging = await admin.everyItem(read, '/staging/privacy-requests');
    assert.deepEqual(staging, []);
  });

  it('refuses a bad filter, limit or cursor, and a token without privacy:read', async () => {
    for (const query of [
      'type=erase',
      'status=DONE',
      'limit=0',
      'limit=1001',
      'cursor=nope',
      'order=up',
      'x=1',
    ])
      assert.equal(
        (await admin.call(read, 'GET', `/production/privacy-requests?${query}`)).statusCode,
        400,
        query,
      );
    assert.equal((await admin.call(read, 'GET', '/testing/privacy-requests')).statusCode, 400);
    const refused = await admin.call(['privacy:lift', 'audit:read'], 'GET', '/production/privacy-requests');
    assert.equal(refused.statusCode, 403);
    assert.match(String(refused.headers['www-authenticate']), /privacy:read/);
    const anonymous = await admin.t.app.inject({
      method: 'GET',
      url: '/admin/v1/production/privacy-requests',
    });
    assert.equal(anonymous.statusCode, 401);
  });
});

describe(`admin API: suppression lifts on ${TEST_DIALECT}`, () => {
  let admin: Admin;
  const lift: AdminScope[] = ['privacy:lift'];
  const body = {
    identifiers: { emailAddress: ALICE.emailAddress.toUpperCase() },
    reason: 'came back as a customer',
    clientNames: ['Acme-EN_GB'],
  };

  before(async () => {
    admin = await adminApp();
    const deps = admin.t.runtime.deps;
    const tenant = await seedPrivacyTenant(deps);
    for (const clientName of ['Acme-EN_GB', 'Acme-DE_DE'])
      await importReviewsBy(deps, ALICE, { clientName, count: 2 });
    await createPrivacyRequest(deps, {
      type: 'forget',
      environment: 'production',
      applicationId: tenant.applicationId,
      identifiers: { authorId: ALICE.authorId },
    });
    await drainPrivacyQueue(deps);
  });
  after(() => admin.t.close());

  it('lifts once per Idempotency-Key, recorded by the caller, and refuses the key for another body', async () => {
    const key = { 'idempotency-key': 'lift-alice-1' };
    const res = await admin.call(lift, 'POST', '/production/suppression-lifts', body, key);
    assert.equal(res.statusCode, 201, res.body);
    const { lifted } = res.json();
    assert.equal(lifted.length, 1);
    assert.equal(lifted[0].clientName, 'Acme-EN_GB');
    assert.ok(lifted[0].identifiers >= 2, res.body);
    const again = await admin.call(lift, 'POST', '/production/suppression-lifts', body, key);
    assert.equal(again.statusCode, 201);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(again.json(), res.json());
    const other = { ...body, reason: 'another reason' };
    assert.equal(
      (await admin.call(lift, 'POST', '/production/suppression-lifts', other, key)).statusCode,
      422,
    );
    const db = admin.t.runtime.deps.store.db;
    const records = await db.selectFrom('privacy_suppression_lifts').selectAll().execute();
    assert.equal(records.length, 1);
    assert.match(String(records[0]?.lifted_by), /^admin-token:/);
    const audit = await db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'suppression.lifted')
      .execute();
    assert.equal(audit.length, 1);
    assert.equal(audit[0]?.actor, records[0]?.lifted_by);

    const named = await admin.call(lift, 'POST', '/production/suppression-lifts', {
      ...body,
      clientNames: ['Acme-DE_DE'],
      liftedBy: 'ops on call',
    });
    assert.equal(named.statusCode, 201, named.body);
    const byName = await db.selectFrom('privacy_suppression_lifts').select('lifted_by').execute();
    assert.ok(byName.some((r) => r.lifted_by === 'ops on call'));
  });

  it('answers 404 when nobody matches and 400 for a bad body, naming no identifier', async () => {
    const post = (payload: object) => admin.call(lift, 'POST', '/production/suppression-lifts', payload);
    const nobody = await post({ identifiers: { authorId: 'carol-unknown-9' }, reason: 'x' });
    assert.equal(nobody.statusCode, 404);
    assert.match(nobody.json().detail, /^no forgotten person in production matches/);
    const cases: [object, string][] = [
      [{ identifiers: {}, reason: 'x' }, 'MISSING_PROPERTY'],
      [{ identifiers: { emailAddress: 'not-an-address-zq81' }, reason: 'x' }, 'INVALID_PROPERTY_VALUE'],
      [{ identifiers: { authorId: 'a' }, reason: '   ' }, 'MISSING_PROPERTY'],
      [{ identifiers: { authorId: 'a' }, reason: 'x', clientNames: ['Nope'] }, 'UNKNOWN_CLIENT_NAME'],
    ];
    for (const [payload, code] of cases) {
      const res = await post(payload);
      assert.equal(res.statusCode, 400, JSON.stringify(payload));
      assert.equal(res.json().code, code, res.body);
      assert.ok(!res.body.includes('zq81'), res.body);
    }
    for (const payload of [
      { identifiers: { mail: 'x@example.com' }, reason: 'x' },
      { identifiers: { authorId: 'a' } },
      { identifiers: { authorId: 'a' }, reason: 'x', extra: true },
      { identifiers: { authorId: 'a' }, reason: 'x', liftedBy: '' },
    ])
      assert.equal((await post(payload)).statusCode, 400, JSON.stringify(payload));
    assert.equal(
      (await admin.call(['privacy:read'], 'POST', '/production/suppression-lifts', body)).statusCode,
      403,
    );
  });

  it('keeps the identifiers out of every log line, audit row and stored idempotency record', async () => {
    const db = admin.t.runtime.deps.store.db;
    const audit = JSON.stringify(await db.selectFrom('audit_events').selectAll().execute());
    const keys = JSON.stringify(await db.selectFrom('idempotency_keys').selectAll().execute());
    const logs = admin.t.runtime.logs.text();
    assert.match(logs, /privacy suppression lifted/);
    const plainDigest = hash('sha256', ALICE.emailAddress, 'hex');
    const keyed = identifierHash(admin.t.runtime.deps.identifierKey, 'emailAddress', ALICE.emailAddress);
    for (const [where, text] of [
      ['audit', audit],
      ['idempotency', keys],
      ['logs', logs],
    ] as const)
      for (const leak of [ALICE.emailAddress, 'zq81', 'carol-unknown-9', plainDigest, keyed])
        assert.ok(!text.toLowerCase().includes(leak.toLowerCase()), `${where} holds ${leak}`);
  });
});

describe(`admin API: signing keys on ${TEST_DIALECT}`, () => {
  let admin: Admin;
  const write: AdminScope[] = ['keys:write'];
  before(async () => {
    admin = await adminApp();
  });
  after(() => admin.t.close());

  const keyCount = async () =>
    (await admin.t.runtime.deps.store.db.selectFrom('token_signing_keys').select('id').execute()).length;

  it('adds a key whose predecessors retire later, or at once, once per Idempotency-Key', async () => {
    const before = await keyCount();
    const key = { 'idempotency-key': 'rotate-1' };
    const res = await admin.call(write, 'POST', '/signing-keys', {}, key);
    assert.equal(res.statusCode, 201, res.body);
    const rotated = res.json();
    assert.deepEqual(Object.keys(rotated).sort(), ['keyId', 'previousKeysRetireAt']);
    assert.ok(Date.parse(rotated.previousKeysRetireAt) > admin.now());
    const again = await admin.call(write, 'POST', '/signing-keys', {}, key);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(again.json(), rotated);
    assert.equal(await keyCount(), before + 1);
    assert.equal(
      (await admin.call(write, 'POST', '/signing-keys', { retirePrevious: true }, key)).statusCode,
      422,
    );
    const now = await admin.call(write, 'POST', '/signing-keys', { retirePrevious: true });
    assert.equal(now.statusCode, 201);
    assert.equal(now.json().previousKeysRetireAt, new Date(admin.now()).toISOString());
    assert.notEqual(now.json().keyId, rotated.keyId);
    const [event] = await admin.t.runtime.deps.store.db
      .selectFrom('audit_events')
      .selectAll()
      .where('target_id', '=', rotated.keyId)
      .execute();
    assert.equal(event?.action, 'signing_key.rotated');
    assert.match(String(event?.actor), /^admin-token:/);
  });

  it('refuses a bad body and a token without keys:write', async () => {
    for (const payload of [{ retirePrevious: 'yes' }, { other: 1 }])
      assert.equal((await admin.call(write, 'POST', '/signing-keys', payload)).statusCode, 400);
    // The body is the request: `{}` for the defaults.
    const bodiless = await admin.call(write, 'POST', '/signing-keys');
    assert.equal(bodiless.statusCode, 400);
    assert.equal(bodiless.json().detail, 'body must be object');
    assert.equal(
      (await admin.call(['tenancy:write', 'audit:read'], 'POST', '/signing-keys', {})).statusCode,
      403,
    );
    assert.equal((await admin.call(write, 'POST', '/production/signing-keys', {})).statusCode, 404);
  });
});

describe(`admin API: audit trail on ${TEST_DIALECT}`, () => {
  let admin: Admin;
  const read: AdminScope[] = ['audit:read'];
  let trail: { id: string; action: string; targetId: string; occurredAt: string }[];

  before(async () => {
    admin = await adminApp();
    // The token the calls use is itself recorded (admin_token.created), first.
    await admin.call(read, 'GET', '/audit-events');
    const deps = admin.t.runtime.deps;
    const entry = (targetId: string) => ({
      action: 'client.created' as const,
      targetType: 'client' as const,
      targetId,
      details: { name: targetId, nested: { n: 1 } },
    });
    for (let i = 0; i < 5; i++) {
      admin.tick(60_000);
      await recordAudit(deps.store.db, deps, entry(`c-${i}`));
    }
    admin.tick(60_000);
    // Three in one millisecond: the id orders them.
    await recordAudit(deps.store.db, deps, entry('same-1'), entry('same-2'), entry('same-3'));
    admin.tick(60_000);
    await recordAudit(deps.store.db, deps, {
      action: 'application.revoked',
      targetType: 'application',
      targetId: 'app-1',
      details: {},
    });
    trail = await admin.everyItem(read, '/audit-events');
  });
  after(() => admin.t.close());

  it('reads the trail oldest first, with the events as recorded', async () => {
    assert.equal(trail.length, 10);
    assert.equal(trail[0]?.action, 'admin_token.created');
    const ids = trail.map((e) => e.id);
    assert.deepEqual(ids, [...ids].sort(), 'time-ordered ids, oldest first');
    const c0 = trail.find((e) => e.targetId === 'c-0');
    assert.deepEqual(c0, {
      id: c0?.id,
      occurredAt: new Date(START + 60_000).toISOString(),
      actor: admin.t.runtime.deps.actor,
      action: 'client.created',
      targetType: 'client',
      targetId: 'c-0',
      details: { name: 'c-0', nested: { n: 1 } },
    });
  });

  it('pages either way, filters, and reads the latest N newest first', async () => {
    const ids = (items: { id: string }[]) => items.map((e) => e.id);
    const every = ids(trail);
    assert.deepEqual(ids(await admin.everyItem(read, '/audit-events?limit=2')), every);
    assert.deepEqual(
      ids(await admin.everyItem(read, '/audit-events?order=newest&limit=3')),
      every.toReversed(),
    );
    const latest = await admin.call(read, 'GET', '/audit-events?order=newest&limit=4');
    assert.deepEqual(ids(latest.json().data), every.slice(-4).reverse());
    assert.match(latest.json().next, /^\/admin\/v1\/audit-events\?order=newest&limit=4&cursor=/);
    const since = new Date(START + 4 * 60_000).toISOString();
    assert.deepEqual(
      ids(await admin.everyItem(read, `/audit-events?since=${since}&limit=2`)),
      ids(trail.filter((e) => e.occurredAt >= since)),
    );
    assert.deepEqual(
      trail.filter((e) => e.occurredAt >= since).map((e) => e.targetId),
      ['c-3', 'c-4', ...trail.slice(-4, -1).map((e) => e.targetId), 'app-1'],
    );
    assert.deepEqual(
      (await admin.everyItem<{ targetId: string }>(read, '/audit-events?action=application.revoked')).map(
        (e) => e.targetId,
      ),
      ['app-1'],
    );
    assert.deepEqual(
      (await admin.everyItem<{ action: string }>(read, '/audit-events?target=c-2')).map((e) => e.action),
      ['client.created'],
    );
    assert.deepEqual(await admin.everyItem(read, '/audit-events?action=no.such'), []);
    assert.deepEqual(await admin.everyItem(read, '/audit-events?since=2999-01-01T00:00:00Z'), []);
  });

  it('refuses a bad query and a token without audit:read', async () => {
    for (const query of ['since=yesterday', 'limit=0', 'cursor=!', 'order=latest', 'unknown=1'])
      assert.equal((await admin.call(read, 'GET', `/audit-events?${query}`)).statusCode, 400, query);
    const refused = await admin.call(['privacy:read', 'tenancy:read'], 'GET', '/audit-events');
    assert.equal(refused.statusCode, 403);
    assert.equal((await admin.call(read, 'GET', '/production/audit-events')).statusCode, 404);
  });
});
