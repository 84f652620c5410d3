import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createPrivacyRequest } from '../../../src/services/privacy/create-privacy-request.js';
import { assertOneLineFailure, rpaAgainst } from '../../helpers/rpa-cli.js';
import {
  createTestRuntime,
  dropSchema,
  TEST_DATABASE_URL,
  TEST_DIALECT,
  uniqueSchema,
} from '../../helpers/test-runtime.js';

const dir = mkdtempSync(join(tmpdir(), 'rpa-webhooks-cli-'));
const schema = TEST_DIALECT === 'postgres' ? uniqueSchema() : undefined;
const databaseUrl = TEST_DIALECT === 'postgres' ? TEST_DATABASE_URL : `sqlite:${join(dir, 'cli.db')}`;
const loopback = { WEBHOOK_ALLOW_HTTP_HOSTS: '127.0.0.1', WEBHOOK_ALLOW_PRIVATE_HOSTS: '127.0.0.1' };
const rpa = rpaAgainst({ databaseUrl, schema });
const rpaLoopback = rpaAgainst({ databaseUrl, schema }, loopback);

describe(`rpa webhooks on ${TEST_DIALECT}`, () => {
  let app: { applicationId: string; clientId: string };
  let staging: { applicationId: string; clientId: string };

  before(async () => {
    const r = await rpa('demo', '--json');
    assert.equal(r.code, 0, r.stderr);
    app = JSON.parse(r.stdout).production;
    staging = JSON.parse(r.stdout).staging;
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    if (schema) await dropSchema(TEST_DATABASE_URL, schema);
  });

  it('refuses URLs that are not public https, each with the reason in one line', async () => {
    const cases: [string[], RegExp][] = [
      [['--url', 'http://hooks.example.com/x'], /https only.*WEBHOOK_ALLOW_HTTP_HOSTS/],
      [['--url', 'https://169.254.169.254/latest'], /not a public address/],
      [['--url', 'https://[::1]:8443/'], /not a public address/],
      [['--url', 'https://localhost/'], /loopback/],
      [['--url', 'https://ops:hunter2@hooks.example.com/'], /credentials/],
      [
        ['--url', 'https://hooks.example.com/', '--events', 'privacy.forget_request.created,review.created'],
        /unknown event "review\.created".*privacy\.access_request\.completed/,
      ],
    ];
    for (const [args, reason] of cases) {
      const line = assertOneLineFailure(
        await rpa('webhooks', 'add', '--app', app.clientId, ...args),
        args.join(' '),
      );
      assert.match(line, reason);
      assert.ok(!line.includes('hunter2'), line);
    }
    assert.match(
      assertOneLineFailure(
        await rpa('webhooks', 'add', '--app', 'nope', '--url', 'https://hooks.example.com/'),
        'unknown app',
      ),
      /no application/,
    );
  });

  it('adds an endpoint, prints its secret once, and never again', async () => {
    const r = await rpaLoopback(
      'webhooks',
      'add',
      '--app',
      app.clientId,
      '--url',
      'http://127.0.0.1:9/hooks?token=abc',
    );
    assert.equal(r.code, 0, r.stderr);
    const secret = /secret\s+(whsec_[A-Za-z0-9+/=]+)/.exec(r.stdout)?.[1];
    assert.ok(secret, r.stdout);
    assert.match(r.stderr, /shown only once/);
    const listed = await rpa('webhooks', 'list', '--app', app.applicationId, '--json');
    assert.equal(listed.code, 0, listed.stderr);
    assert.ok(!listed.stdout.includes('whsec_'));
    const [endpoint] = JSON.parse(listed.stdout);
    assert.equal(endpoint.url, 'http://127.0.0.1:9/hooks?token=abc');
    assert.deepEqual(endpoint.events, [
      'privacy.access_request.completed',
      'privacy.access_request.created',
      'privacy.forget_request.completed',
      'privacy.forget_request.created',
    ]);
    assert.equal(endpoint.status, 'enabled');
    assert.equal(endpoint.liveSecrets, 1);

    const audit = await rpa('audit', '--action', 'webhook_endpoint.created', '--json');
    assert.equal(audit.code, 0, audit.stderr);
    const [event] = JSON.parse(audit.stdout);
    assert.equal(event.targetId, endpoint.id);
    assert.equal(event.details.origin, 'http://127.0.0.1:9');
    assert.ok(!audit.stdout.includes('token=abc') && !audit.stdout.includes('whsec_'), audit.stdout);
  });

  it('rotates a secret: a new one printed once, both signing until the grace period ends', async () => {
    const [endpoint] = JSON.parse((await rpa('webhooks', 'list', '--json')).stdout);
    const r = await rpa('webhooks', 'rotate-secret', endpoint.id, '--grace', '1h', '--json');
    assert.equal(r.code, 0, r.stderr);
    const rotated = JSON.parse(r.stdout);
    assert.match(rotated.secret, /^whsec_/);
    const until = Date.parse(rotated.previousSecretSignsUntil) - Date.now();
    assert.ok(until > 3_500_000 && until <= 3_600_000, String(until));
    assert.equal(JSON.parse((await rpa('webhooks', 'list', '--json')).stdout)[0].liveSecrets, 2);
    assert.match(
      assertOneLineFailure(await rpa('webhooks', 'rotate-secret', endpoint.id, '--grace', '90d'), 'grace'),
      /30 days/,
    );
  });

  it('lists deliveries with their state', async () => {
    const rt = await createTestRuntime({}, { databaseUrl, ...(schema ? { schema, keepSchema: true } : {}) });
    try {
      await createPrivacyRequest(rt.deps, {
        type: 'forget',
        environment: 'production',
        applicationId: app.applicationId,
        identifiers: { emailAddress: 'cli@example.com' },
      });
    } finally {
      await rt.close();
    }
    const r = await rpa('webhooks', 'deliveries', '--app', app.clientId, '--json');
    assert.equal(r.code, 0, r.stderr);
    const [d] = JSON.parse(r.stdout);
    assert.equal(d.event, 'privacy.forget_request.created');
    assert.match(d.webhookId, /^msg_/);
    assert.deepEqual([d.status, d.attempts, d.lastAttemptAt], ['pending', 0, null]);
    const text = await rpa('webhooks', 'deliveries', '--status', 'pending');
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /privacy\.forget_request\.created .*pending\s+attempts 0\s+not tried yet/);
    assert.equal(
      (await rpa('webhooks', 'deliveries', '--status', 'delivered')).stdout.trim(),
      'no deliveries',
    );
    assertOneLineFailure(await rpa('webhooks', 'deliveries', '--status', 'lost'), 'bad status');
  });

  it('finds a staging endpoint without --env: lists both environments, enables and removes it', async () => {
    const added = await rpaLoopback(
      'webhooks',
      'add',
      '--app',
      staging.clientId,
      '--url',
      'http://127.0.0.1:9/staging',
      '--events',
      'privacy.access_request.created',
      '--json',
    );
    assert.equal(added.code, 0, added.stderr);
    const endpoint = JSON.parse(added.stdout);
    assert.deepEqual(
      [endpoint.environment, endpoint.applicationId, endpoint.events],
      ['staging', staging.applicationId, ['privacy.access_request.created']],
    );
    const all = JSON.parse((await rpa('webhooks', 'list', '--json')).stdout);
    assert.deepEqual(
      all.map((e: { environment: string }) => e.environment),
      ['production', 'staging'],
    );
    const onlyStaging = JSON.parse((await rpa('webhooks', 'list', '--env', 'staging', '--json')).stdout);
    assert.deepEqual(
      onlyStaging.map((e: { id: string }) => e.id),
      [endpoint.id],
    );
    const enabled = await rpa('webhooks', 'enable', endpoint.id, '--json');
    assert.equal(enabled.code, 0, enabled.stderr);
    assert.deepEqual(
      [JSON.parse(enabled.stdout).id, JSON.parse(enabled.stdout).status],
      [endpoint.id, 'enabled'],
    );
    const deliveries = await rpa('webhooks', 'deliveries', '--endpoint', endpoint.id, '--json');
    assert.equal(deliveries.code, 0, deliveries.stderr);
    assert.deepEqual(JSON.parse(deliveries.stdout), []);
    const removed = await rpa('webhooks', 'remove', endpoint.id, '--json');
    assert.equal(removed.code, 0, removed.stderr);
    assert.deepEqual(JSON.parse(removed.stdout), { removed: endpoint.id });
    assert.match(
      assertOneLineFailure(await rpa('webhooks', 'enable', endpoint.id), 'enable removed'),
      /no webhook endpoint/,
    );
  });

  it('removes an endpoint; a secret given as an id is refused without being repeated', async () => {
    const [endpoint] = JSON.parse((await rpa('webhooks', 'list', '--json')).stdout);
    const leaked = 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0cw==';
    const line = assertOneLineFailure(await rpa('webhooks', 'remove', leaked), 'secret as id');
    assert.ok(!line.includes('c2VjcmV0'), line);
    assert.equal((await rpa('webhooks', 'remove', endpoint.id)).code, 0);
    assert.equal((await rpa('webhooks', 'list')).stdout.trim(), 'no webhook endpoints');
    assert.match(
      assertOneLineFailure(await rpa('webhooks', 'remove', endpoint.id), 'removed twice'),
      /no webhook endpoint/,
    );
  });
});
