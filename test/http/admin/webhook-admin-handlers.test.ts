import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Environment } from '../../../src/domain/environment.js';
import { createPrivacyRequest } from '../../../src/services/privacy/create-privacy-request.js';
import { createApplication } from '../../../src/services/tenancy/create-application.js';
import { createClient } from '../../../src/services/tenancy/create-client.js';
import { setWebhookEndpointDisabled } from '../../../src/store/repositories/webhook-endpoints.js';
import { createTestAdminApp, type TestAdminApp } from '../../helpers/test-admin-app.js';
import { TEST_DIALECT } from '../../helpers/test-runtime.js';

const LOOPBACK = { WEBHOOK_ALLOW_HTTP_HOSTS: '127.0.0.1', WEBHOOK_ALLOW_PRIVATE_HOSTS: '127.0.0.1' };
const HOOK = 'http://127.0.0.1:9/hooks?token=abc';

interface Tenant {
  readonly applicationId: string;
  readonly clientId: string;
}

describe(`admin API: webhooks on ${TEST_DIALECT}`, () => {
  let t: TestAdminApp;
  let auth: string;
  let prod: Tenant;
  let stg: Tenant;
  /** Every signing secret an answer showed: none may reach a log line or an audit row. */
  const secretsSeen: string[] = [];

  const tenant = async (environment: Environment, name: string): Promise<Tenant> => {
    await createClient(t.runtime.deps, { environment, name });
    const created = await createApplication(t.runtime.deps, { environment, name, clientNames: [name] });
    return { applicationId: created.application.id, clientId: created.application.clientId };
  };

  before(async () => {
    t = await createTestAdminApp(LOOPBACK);
    auth = await t.bearer('webhooks:read', 'webhooks:write');
    prod = await tenant('production', 'Hooked-EN_GB');
    stg = await tenant('staging', 'Hooked-EN_GB');
  });
  after(() => t.close());

  const call = (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    payload?: object,
    headers: Record<string, string> = {},
  ) => t.call(auth, method, url, payload, headers);
  /** The ids of every page's items, following `next` links (and checking each keeps the filters). */
  const followPages = async (first: string): Promise<string[]> => {
    const { items, urls } = await t.pages<{ id: string }>(auth, first);
    for (const url of urls)
      for (const param of new URL(first, 'http://x').searchParams.keys())
        if (param !== 'cursor') assert.ok(new URL(url, 'http://x').searchParams.has(param), url);
    return items.map((item) => item.id);
  };
  const add = async (environment: Environment, app: string, extra: object = {}) => {
    const res = await call('POST', `/${environment}/webhook-endpoints`, { app, url: HOOK, ...extra });
    assert.equal(res.statusCode, 201, res.body);
    secretsSeen.push(res.json().secret);
    return res.json();
  };

  it('adds an endpoint in its application’s environment, showing the signing secret once', async () => {
    const added = await add('production', prod.clientId, { events: ['privacy.forget_request.created'] });
    assert.match(added.secret, /^whsec_/);
    assert.deepEqual(
      { ...added, id: undefined, secret: undefined, createdAt: undefined },
      {
        id: undefined,
        applicationId: prod.applicationId,
        environment: 'production',
        url: HOOK,
        events: ['privacy.forget_request.created'],
        status: 'enabled',
        disabledAt: null,
        disabledReason: null,
        createdAt: undefined,
        liveSecrets: 1,
        secret: undefined,
      },
    );
    const read = await call('GET', `/production/webhook-endpoints/${added.id}`);
    assert.equal(read.statusCode, 200);
    assert.equal(read.json().secret, undefined);
    assert.equal(read.json().url, HOOK);
    const elsewhere = await call('GET', `/staging/webhook-endpoints/${added.id}`);
    assert.equal(elsewhere.statusCode, 404);
    assert.match(elsewhere.json().detail, /no webhook endpoint .* in staging/);
  });

  it('refuses an application of the other environment, a bad URL, an unknown event or field', async () => {
    const post = (body: object) => call('POST', '/staging/webhook-endpoints', body);
    const otherEnv = await post({ app: prod.applicationId, url: HOOK });
    assert.equal(otherEnv.statusCode, 404);
    assert.match(otherEnv.json().detail, /no application .* in staging/);
    assert.equal((await post({ app: 'nope', url: HOOK })).statusCode, 404);
    const cases: [object, RegExp][] = [
      [{ url: 'https://localhost/' }, /loopback/],
      [{ url: 'https://ops:hunter2@hooks.example.com/' }, /credentials/],
      [{ url: HOOK, events: ['review.created'] }, /unknown event "review\.created"/],
    ];
    for (const [body, reason] of cases) {
      const res = await post({ app: stg.clientId, ...body });
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.match(res.json().detail, reason);
      assert.ok(!res.body.includes('hunter2'), res.body);
    }
    assert.equal((await post({ app: stg.clientId, url: HOOK, extra: 1 })).statusCode, 400);
    assert.equal((await post({ url: HOOK })).statusCode, 400);
  });

  it('adds once per Idempotency-Key: the same answer and secret again, another body is 422', async () => {
    const send = (url: string) =>
      call(
        'POST',
        '/staging/webhook-endpoints',
        { app: stg.applicationId, url },
        { 'idempotency-key': 'add-1' },
      );
    const first = await send(HOOK);
    const again = await send(HOOK);
    assert.equal(first.statusCode, 201);
    assert.equal(again.statusCode, 201);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(again.json(), first.json());
    secretsSeen.push(first.json().secret);
    const listed = (await call('GET', `/staging/webhook-endpoints?app=${stg.applicationId}`)).json();
    assert.deepEqual(
      listed.data.map((e: { id: string }) => e.id),
      [first.json().id],
    );
    const other = await send('http://127.0.0.1:9/other');
    assert.equal(other.statusCode, 422);
    assert.equal(other.json().code, 'IDEMPOTENCY_KEY_REUSED');
  });

  it('needs webhooks:read to read and webhooks:write to change', async () => {
    const reader = await t.bearer('webhooks:read');
    const tenancy = await t.bearer('tenancy:read', 'tenancy:write');
    const [endpoint] = (await call('GET', '/production/webhook-endpoints')).json().data;
    const as = (authorization: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({
        method,
        url: `/admin/v1${url}`,
        headers: { authorization },
        ...(payload ? { payload } : {}),
      });
    const path = `/production/webhook-endpoints/${endpoint.id}`;
    assert.equal((await as(reader, 'GET', path)).statusCode, 200);
    assert.equal((await as(reader, 'GET', '/production/webhook-deliveries')).statusCode, 200);
    const writes: [string, string, object?][] = [
      ['POST', '/production/webhook-endpoints', { app: prod.applicationId, url: HOOK }],
      ['POST', `${path}/rotate-secret`, {}],
      ['POST', `${path}/enable`],
      ['DELETE', path],
    ];
    for (const [method, url, body] of writes) {
      const res = await as(reader, method as 'POST', url, body);
      assert.equal(res.statusCode, 403, `${method} ${url}`);
      assert.match(String(res.headers['www-authenticate']), /webhooks:write/);
    }
    for (const url of [path, '/production/webhook-endpoints', '/production/webhook-deliveries'])
      assert.equal((await as(tenancy, 'GET', url)).statusCode, 403, url);
    assert.equal((await t.app.inject({ method: 'GET', url: `/admin/v1${path}` })).statusCode, 401);
  });

  it('rotates a secret: a new one shown once, both signing for the grace period', async () => {
    const endpoint = await add('production', prod.applicationId);
    const path = `/production/webhook-endpoints/${endpoint.id}`;
    const before = Date.now();
    const rotated = await call(
      'POST',
      `${path}/rotate-secret`,
      { graceSeconds: 3600 },
      { 'idempotency-key': 'rot-1' },
    );
    assert.equal(rotated.statusCode, 201, rotated.body);
    const body = rotated.json();
    secretsSeen.push(body.secret);
    assert.equal(body.endpointId, endpoint.id);
    assert.match(body.secret, /^whsec_/);
    assert.notEqual(body.secret, endpoint.secret);
    const until = Date.parse(body.previousSecretSignsUntil) - before;
    assert.ok(until >= 3_599_000 && until <= 3_601_000, String(until));
    const replay = await call(
      'POST',
      `${path}/rotate-secret`,
      { graceSeconds: 3600 },
      { 'idempotency-key': 'rot-1' },
    );
    assert.deepEqual(replay.json(), body);
    assert.equal((await call('GET', path)).json().liveSecrets, 2);
    assert.equal((await call('POST', `${path}/rotate-secret`)).statusCode, 400);
    const byDefault = await call('POST', `${path}/rotate-secret`, {});
    assert.equal(byDefault.statusCode, 201, byDefault.body);
    secretsSeen.push(byDefault.json().secret);
    const day = Date.parse(byDefault.json().previousSecretSignsUntil) - Date.now();
    assert.ok(Math.abs(day - 86_400_000) < 60_000, String(day));
    assert.equal(
      (await call('POST', `${path}/rotate-secret`, { graceSeconds: 31 * 86_400 })).statusCode,
      400,
    );
    const elsewhere = await call('POST', `/staging/webhook-endpoints/${endpoint.id}/rotate-secret`, {});
    assert.equal(elsewhere.statusCode, 404);
    const secretAsId = await call(
      'POST',
      `/production/webhook-endpoints/${encodeURIComponent(body.secret)}/rotate-secret`,
      {},
    );
    assert.equal(secretAsId.statusCode, 400);
    assert.ok(!secretAsId.body.includes(body.secret.slice(6)), secretAsId.body);
  });

  it('enables an endpoint that answered 410 Gone, in its environment only', async () => {
    const endpoint = await add('production', prod.applicationId);
    await setWebhookEndpointDisabled(t.runtime.deps.store.db, endpoint.id, {
      at: Date.now(),
      reason: 'HTTP 410',
    });
    const path = `/production/webhook-endpoints/${endpoint.id}`;
    const disabled = (await call('GET', path)).json();
    assert.deepEqual([disabled.status, disabled.disabledReason], ['disabled', 'HTTP 410']);
    assert.match(disabled.disabledAt, /^\d{4}-\d\d-\d\dT/);
    assert.equal((await call('POST', `/staging/webhook-endpoints/${endpoint.id}/enable`)).statusCode, 404);
    const enabled = await call('POST', `${path}/enable`);
    assert.equal(enabled.statusCode, 200);
    assert.deepEqual(
      [enabled.json().status, enabled.json().disabledAt, enabled.json().disabledReason],
      ['enabled', null, null],
    );
    assert.equal((await call('POST', '/production/webhook-endpoints/nope/enable')).statusCode, 404);
  });

  it('removes an endpoint: 204, then 404; not from the other environment', async () => {
    const endpoint = await add('production', prod.applicationId);
    const path = `/production/webhook-endpoints/${endpoint.id}`;
    assert.equal((await call('DELETE', `/staging/webhook-endpoints/${endpoint.id}`)).statusCode, 404);
    const removed = await call('DELETE', path);
    assert.equal(removed.statusCode, 204);
    assert.equal(removed.body, '');
    assert.equal((await call('DELETE', path)).statusCode, 404);
    assert.equal((await call('GET', path)).statusCode, 404);
  });

  it('lists endpoints oldest first, a page at a time, by application when asked', async () => {
    const all = (await call('GET', '/production/webhook-endpoints')).json();
    assert.equal(all.next, null);
    assert.ok(all.data.length >= 3);
    assert.ok(all.data.every((e: { environment: string }) => e.environment === 'production'));
    const seen = await followPages('/production/webhook-endpoints?limit=2');
    assert.deepEqual(
      seen,
      all.data.map((e: { id: string }) => e.id),
    );
    const times = all.data.map((e: { createdAt: string }) => e.createdAt);
    assert.deepEqual([...times].sort(), times);
    assert.equal(
      (await call('GET', `/production/webhook-endpoints?app=${stg.applicationId}`)).statusCode,
      404,
    );
    assert.equal((await call('GET', '/production/webhook-endpoints?cursor=bogus!')).statusCode, 400);
  });

  it('lists deliveries newest event first, a page at a time, with the filters of the CLI', async () => {
    for (const [i, environment, app] of [
      [1, 'production', prod],
      [2, 'production', prod],
      [3, 'staging', stg],
      [4, 'production', prod],
    ] as const) {
      await createPrivacyRequest(t.runtime.deps, {
        type: 'forget',
        environment,
        applicationId: app.applicationId,
        identifiers: { emailAddress: `hook${i}@example.com` },
      });
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    const all = (await call('GET', '/production/webhook-deliveries')).json();
    assert.ok(all.data.length >= 3, JSON.stringify(all));
    assert.ok(all.data.every((d: { applicationId: string }) => d.applicationId === prod.applicationId));
    const times = all.data.map((d: { createdAt: string }) => d.createdAt);
    assert.deepEqual([...times].sort().reverse(), times);
    const seen = await followPages('/production/webhook-deliveries?limit=1&status=pending');
    assert.deepEqual(
      seen,
      all.data.map((d: { id: string }) => d.id),
    );
    const [newest] = all.data;
    assert.deepEqual(
      [newest.event, newest.status, newest.attempts, newest.lastAttemptAt],
      ['privacy.forget_request.created', 'pending', 0, null],
    );
    const by = async (query: string) =>
      (await call('GET', `/production/webhook-deliveries?${query}`))
        .json()
        .data.map((d: { id: string }) => d.id);
    assert.deepEqual(await by(`webhookId=${newest.webhookId}&endpoint=${newest.endpointId}`), [newest.id]);
    assert.deepEqual(await by(`app=${prod.clientId}`), seen);
    assert.deepEqual(await by('status=delivered'), []);
    const staging = (await call('GET', '/staging/webhook-deliveries')).json().data;
    assert.ok(
      staging.length >= 1 &&
        staging.every((d: { applicationId: string }) => d.applicationId === stg.applicationId),
    );
    const endpointElsewhere = await call('GET', `/staging/webhook-deliveries?endpoint=${newest.endpointId}`);
    assert.equal(endpointElsewhere.statusCode, 404);
    assert.equal(
      (await call('GET', `/staging/webhook-deliveries?app=${prod.applicationId}`)).statusCode,
      404,
    );
    assert.equal((await call('GET', '/production/webhook-deliveries?status=lost')).statusCode, 400);
  });

  it('writes no signing secret to a log line or an audit row', async () => {
    assert.ok(secretsSeen.length >= 5);
    const audit = JSON.stringify(
      await t.runtime.deps.store.db.selectFrom('audit_events').selectAll().execute(),
    );
    const logs = t.runtime.logs.text();
    assert.match(logs, /admin request completed/);
    assert.match(audit, /webhook_endpoint\.secret_rotated/);
    for (const text of [logs, audit]) {
      assert.ok(!text.includes('whsec_'), 'a whsec_ value');
      for (const secret of secretsSeen) assert.ok(!text.includes(secret.slice(6)), 'a secret');
    }
  });
});
