import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import parsePrometheusTextFormat, { type ParsedFamily } from 'parse-prometheus-text-format';
import { loadConfig } from '../../../src/config.js';
import { type MetricsServer, startMetricsServer } from '../../../src/http/metrics-server.js';
import { updatePasskey } from '../../../src/services/tenancy/update-passkey.js';
import { seedTestTenant, type TestTenant } from '../../helpers/credentials.js';
import { drainPrivacyQueue } from '../../helpers/privacy-fixtures.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../../helpers/test-runtime.js';

const host = { host: 'localhost' };
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe(`Prometheus metrics on ${TEST_DIALECT}`, () => {
  let t: TestApp;
  let tenant: TestTenant;
  let server: MetricsServer;
  let families: Map<string, ParsedFamily>;
  let text: string;

  const sample = (name: string, labels: Record<string, string> = {}) => {
    const family = families.get(name);
    assert.ok(family, `no ${name} in the scrape`);
    return family.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  };
  const value = (name: string, labels: Record<string, string> = {}) =>
    Number(sample(name, labels)?.value ?? 0);

  before(async () => {
    t = await createTestApp();
    tenant = await seedTestTenant(t.runtime);
    server = await startMetricsServer(t.runtime.deps.metrics, {
      port: 0,
      host: '127.0.0.1',
      logger: t.runtime.deps.logger,
    });
    const app = t.app;
    // Tokens: one issued, one refused for a wrong secret, one for malformed credentials.
    const form = { 'content-type': 'application/x-www-form-urlencoded', ...host };
    const issued = await app.inject({
      method: 'POST',
      url: '/auth/v1/oauth2/token',
      headers: { ...form, authorization: basic(tenant.clientId, tenant.clientSecret) },
      payload: 'grant_type=client_credentials',
    });
    assert.equal(issued.statusCode, 200, issued.body);
    const wrong = await app.inject({
      method: 'POST',
      url: '/auth/v1/oauth2/token',
      headers: { ...form, authorization: basic(tenant.clientId, 'rpa_cs_wrong') },
      payload: 'grant_type=client_credentials',
    });
    assert.equal(wrong.statusCode, 401);
    await app.inject({
      method: 'POST',
      url: '/auth/v1/oauth2/token',
      headers: { ...form, authorization: 'Basic !!!' },
      payload: 'grant_type=client_credentials',
    });
    // Response API: two reads, then a limit of one call a minute refuses the next.
    const bearer = { ...host, authorization: `Bearer ${tenant.token}` };
    const list = `/response/v1/clientResponses/Acme-EN_GB/reviews/demo-acme-en_gb-1?passkey=${tenant.responsePasskey}`;
    assert.equal((await app.inject({ url: list, headers: bearer })).statusCode, 200);
    await updatePasskey(t.runtime.deps, { passkeyId: tenant.responsePasskeyId, ratePerMinute: 1 });
    const limited = [];
    for (let i = 0; i < 3; i++) limited.push((await app.inject({ url: list, headers: bearer })).statusCode);
    assert.ok(limited.includes(429), limited.join(','));
    // Unmatched paths are counted under one label, whatever the path.
    await app.inject({ url: `/no/such/${tenant.clientId}`, headers: host });
    await app.inject({ method: 'PROPFIND' as 'GET', url: '/healthz', headers: host });
    // Privacy: one forget and one access request, one of them completed.
    const privacy = (type: string) =>
      app.inject({
        method: 'POST',
        url: `/privacy/v1/${type}Requests?passkey=${tenant.privacyPasskey}`,
        headers: { ...bearer, 'content-type': 'application/json' },
        payload: { emailAddress: type === 'forget' ? 'alice@example.com' : 'bob@example.com' },
      });
    assert.equal((await privacy('forget')).statusCode, 201);
    await drainPrivacyQueue(t.runtime.deps);
    assert.equal((await privacy('access')).statusCode, 201);

    const scraped = await fetch(`http://127.0.0.1:${server.address.port}/metrics`);
    assert.equal(scraped.status, 200);
    assert.match(scraped.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    text = await scraped.text();
    families = new Map(parsePrometheusTextFormat(text).map((f) => [f.name, f]));
  });

  after(async () => {
    await server.close();
    await t.close();
  });

  it('counts requests and their duration by route template, method and status class', () => {
    const author = sample('rpa_http_requests_total', {
      route: '/response/v1/clientResponses/:client/reviews/:reviewId',
      method: 'GET',
      status_class: '2xx',
    });
    assert.ok(Number(author?.value) >= 1);
    assert.equal(
      value('rpa_http_requests_total', {
        route: '/response/v1/clientResponses/:client/reviews/:reviewId',
        status_class: '4xx',
      }) >= 1,
      true,
    );
    assert.equal(families.get('rpa_http_request_duration_seconds')?.type, 'HISTOGRAM');
    // The parser folds a histogram's label sets into one sample, so its series are read untyped
    // (each run of lines of one name is then a family of its own, hence the flattening).
    const untyped = parsePrometheusTextFormat(
      text.replace(/^# (HELP|TYPE) rpa_http_request_duration_seconds .*$/gm, ''),
    ).flatMap((f) => f.metrics.map((m) => ({ name: f.name, ...m })));
    const token = { route: '/auth/v1/oauth2/token', method: 'POST', status_class: '2xx' };
    const series = (suffix: string, labels: Record<string, string>) =>
      untyped.find(
        (m) =>
          m.name === `rpa_http_request_duration_seconds_${suffix}` &&
          Object.entries(labels).every(([k, v]) => m.labels?.[k] === v),
      )?.value;
    assert.equal(series('count', token), '1');
    assert.ok(Number(series('sum', token)) > 0);
    assert.equal(series('bucket', { ...token, le: '+Inf' }), '1');
    assert.equal(series('bucket', { ...token, le: '0.0005' }), '0', 'a token takes longer than 0.5 ms');
    assert.ok(value('rpa_http_requests_total', { route: 'unmatched', status_class: '4xx' }) >= 1);
    assert.ok(value('rpa_http_requests_total', { method: 'other' }) >= 1, 'an odd method is one label value');
  });

  it('counts tokens issued and client authentication failures by reason', () => {
    // The test tenant's own token (issued in-process) and the one the endpoint issued.
    assert.equal(value('rpa_tokens_issued_total'), 2);
    assert.equal(value('rpa_client_auth_failures_total', { reason: 'invalid_credentials' }), 1);
    assert.equal(value('rpa_client_auth_failures_total', { reason: 'malformed' }), 1);
  });

  it('counts limit decisions by API', () => {
    assert.ok(value('rpa_limit_decisions_total', { api: 'response', outcome: 'allowed' }) >= 1);
    assert.ok(value('rpa_limit_decisions_total', { api: 'response', outcome: 'refused' }) >= 1);
    assert.ok(value('rpa_limit_decisions_total', { api: 'privacy', outcome: 'allowed' }) >= 2);
    assert.equal(value('rpa_limit_decisions_total', { api: 'auth', outcome: 'allowed' }), 1);
  });

  it('reports privacy requests by type and status, the worker lag and the erasure count', () => {
    assert.equal(value('rpa_privacy_requests_created_total', { type: 'forget' }), 1);
    assert.equal(value('rpa_privacy_requests_created_total', { type: 'access' }), 1);
    assert.equal(value('rpa_privacy_requests_completed_total', { type: 'forget' }), 1);
    assert.equal(value('rpa_privacy_requests', { type: 'forget', status: 'COMPLETED' }), 1);
    assert.equal(value('rpa_privacy_requests', { type: 'access', status: 'PENDING' }), 1);
    assert.equal(value('rpa_privacy_requests', { type: 'forget', status: 'PENDING' }), 0);
    assert.ok(value('rpa_privacy_oldest_pending_seconds', { type: 'access' }) >= 0);
    assert.equal(value('rpa_privacy_oldest_pending_seconds', { type: 'forget' }), 0);
    // Alice has one review in each demo client.
    assert.equal(value('rpa_privacy_reviews_erased_total'), 2);
    assert.equal(families.get('rpa_database_errors_total')?.type, 'COUNTER');
  });

  it('includes process metrics', () => {
    assert.ok(value('rpa_process_resident_memory_bytes') > 0);
    assert.ok(families.has('rpa_nodejs_eventloop_lag_seconds'));
  });

  it('puts no credential, tenant id or identifier in any label', () => {
    const labelValues = [...families.values()].flatMap((f) =>
      f.metrics.flatMap((m) => Object.values(m.labels ?? {})),
    );
    assert.ok(labelValues.length > 20);
    for (const secret of [
      tenant.clientId,
      tenant.clientSecret,
      tenant.token,
      tenant.responsePasskey,
      tenant.privacyPasskey,
      tenant.responsePasskeyId,
      tenant.applicationId,
      'alice@example.com',
      'bob@example.com',
    ]) {
      assert.ok(!text.includes(secret), `the scrape holds ${secret.slice(0, 12)}…`);
    }
    for (const v of labelValues) assert.doesNotMatch(v, /rpa_(ci|cs|pk|at)_|@|[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  it('is served only on its own listener', async () => {
    const pub = await t.app.inject({ url: '/metrics', headers: host });
    assert.equal(pub.statusCode, 404);
    const other = await fetch(`http://127.0.0.1:${server.address.port}/other`);
    assert.equal(other.status, 404);
    assert.throws(
      () => loadConfig({ PORT: '9100', METRICS_PORT: '9100' }),
      /METRICS_PORT: must differ from PORT/,
    );
    assert.deepEqual(loadConfig({ METRICS_PORT: '9464' }).metrics, { port: 9464, host: '127.0.0.1' });
    assert.equal(loadConfig({}).metrics, null);
  });
});

describe('a metrics scrape while the database is unreachable', () => {
  it('still answers, and counts the database error', async () => {
    const t = await createTestApp();
    const server = await startMetricsServer(t.runtime.deps.metrics, {
      port: 0,
      host: '127.0.0.1',
      logger: t.runtime.deps.logger,
    });
    try {
      await t.runtime.deps.store.db.schema
        .dropTable('privacy_requests')
        .cascade()
        .execute()
        .catch(async () => {
          // SQLite has no cascade: drop what refers to it first.
          for (const table of [
            'privacy_export_reviews',
            'privacy_exports',
            'privacy_pending_keys',
            'privacy_request_identifiers',
            'privacy_request_clients',
            'privacy_request_leases',
            'privacy_requests',
          ]) {
            await t.runtime.deps.store.db.schema.dropTable(table).ifExists().execute();
          }
        });
      const r = await fetch(`http://127.0.0.1:${server.address.port}/metrics`);
      assert.equal(r.status, 200);
      const families = new Map(parsePrometheusTextFormat(await r.text()).map((f) => [f.name, f]));
      assert.equal(Number(families.get('rpa_database_errors_total')?.metrics[0]?.value), 1);
    } finally {
      await server.close();
      await t.close();
    }
  });
});
