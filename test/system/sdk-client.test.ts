import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type ClientOptions, createClient, ReviewsApiError } from '../../sdk/src/index.js';
import { revokeAccessToken } from '../../src/services/auth/revoke-access-token.js';
import { createPasskey } from '../../src/services/tenancy/create-passkey.js';
import { authenticatedClientOf, seedTestTenant, type TestTenant } from '../helpers/credentials.js';
import { drainPrivacyQueue } from '../helpers/privacy-fixtures.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../helpers/test-runtime.js';

/** A fetch that counts what it sends, by path. */
function countingFetch() {
  const sent: string[] = [];
  return {
    sent,
    tokenRequests: () => sent.filter((p) => p === '/auth/v1/oauth2/token').length,
    fetch: (request: Request) => {
      sent.push(new URL(request.url).pathname);
      return fetch(request);
    },
  };
}

describe(`TypeScript SDK against a live server on ${TEST_DIALECT}`, () => {
  let t: TestApp;
  let tenant: TestTenant;
  let baseUrl: string;
  const options = (more: Partial<ClientOptions> = {}): ClientOptions => ({
    baseUrl,
    clientId: tenant.clientId,
    clientSecret: tenant.clientSecret,
    passkeys: { response: tenant.responsePasskey, privacy: tenant.privacyPasskey },
    ...more,
  });

  before(async () => {
    t = await createTestApp();
    tenant = await seedTestTenant(t.runtime, 'production');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    assert.ok(address && typeof address === 'object');
    baseUrl = `http://localhost:${address.port}/`;
  });
  after(() => t.close());

  it('is built by the root install and imported by its package name', async () => {
    const built = await import('@reviews-partner-api/sdk');
    assert.equal(typeof built.createClient, 'function');
    assert.equal(typeof built.ReviewsApiError, 'function');
  });

  it('sends every create with an Idempotency-Key, so its retry after a lost answer files once', async () => {
    const keys: string[] = [];
    let lose = true;
    const api = createClient(
      options({
        sleep: async () => {},
        fetch: async (request) => {
          const answer = await fetch(request);
          if (request.method !== 'POST' || new URL(request.url).pathname.startsWith('/auth/')) return answer;
          keys.push(request.headers.get('idempotency-key') ?? '');
          if (!lose) return answer;
          lose = false;
          // The request was filed, but its answer was lost on the way back.
          return new Response(null, { status: 503, headers: { 'retry-after': '1' } });
        },
      }),
    );
    /** Each retry sent the first attempt's key, and no two calls shared one. */
    const sentOnce = (calls: number) => {
      assert.equal(keys.length, calls * 2);
      for (let i = 0; i < keys.length; i += 2) assert.ok(keys[i] && keys[i] === keys[i + 1], `call ${i / 2}`);
      assert.equal(new Set(keys).size, calls);
    };
    const filed = await api.privacy.forget({ emailAddress: 'lost.answer@example.com' });
    sentOnce(1);
    const listed = await api.privacy.listForget({ emailAddress: 'lost.answer@example.com' });
    assert.deepEqual(
      listed.requests.map((r) => r.id),
      [filed.id],
    );
    lose = true;
    const asked = await api.privacy.access({ emailAddress: 'lost.answer.too@example.com' });
    sentOnce(2);
    const accessList = await api.privacy.listAccess({ emailAddress: 'lost.answer.too@example.com' });
    assert.deepEqual(
      accessList.requests.map((r) => r.id),
      [asked.id],
    );
    lose = true;
    const answered = await api.responses.create('Acme-EN_GB', 'demo-acme-en_gb-3', {
      department: 'Care',
      response: 'Answered once, though the answer was lost',
    });
    sentOnce(3);
    const responses = await api.responses.list('Acme-EN_GB', 'demo-acme-en_gb-3');
    assert.deepEqual(
      responses.data.map((r) => r.id),
      [answered.data.id],
    );
  });

  it('obtains one token for many concurrent calls', async () => {
    const counter = countingFetch();
    const api = createClient(options({ fetch: counter.fetch }));
    const lists = await Promise.all(
      Array.from({ length: 20 }, () => api.responses.list('Acme-EN_GB', 'demo-acme-en_gb-1')),
    );
    assert.equal(lists.length, 20);
    for (const list of lists) assert.ok(Array.isArray(list.data));
    assert.equal(counter.tokenRequests(), 1);
    assert.equal(counter.sent.length, 21);
  });

  it('renews the token before it expires, and once when the API refuses it', async () => {
    const counter = countingFetch();
    let clock = Date.now();
    const api = createClient(options({ fetch: counter.fetch, now: () => clock }));
    const first = await api.token();
    assert.equal(await api.token(), first);
    // Tokens live TOKEN_TTL_SECONDS (3600): within the last 30 s a new one is fetched first.
    clock += 3_571_000;
    const second = await api.token();
    assert.notEqual(second, first);
    assert.equal(counter.tokenRequests(), 2);

    const client = await authenticatedClientOf(t.runtime, tenant.applicationId);
    await revokeAccessToken(t.runtime.deps, { client, token: second });
    const list = await api.responses.list('Acme-EN_GB', 'demo-acme-en_gb-1');
    assert.ok(Array.isArray(list.data));
    assert.equal(counter.tokenRequests(), 3);
    assert.notEqual(await api.token(), second);
  });

  it('goes through the life of a response', async () => {
    const api = createClient(options());
    const created = await api.responses.create('Acme-EN_GB', 'demo-acme-en_gb-2', {
      department: 'Customer care',
      response: 'Thank you, Bob!',
      responseBy: 'Sam',
    });
    const guid = created.data.id;
    assert.equal(created.data.type, 'clientResponse');
    assert.equal((await api.responses.get(guid)).data.attributes.response, 'Thank you, Bob!');
    assert.equal((await api.responses.getAuthor(guid)).data.type, 'author');
    assert.equal((await api.responses.getReview(guid)).data.id, 'demo-acme-en_gb-2');
    const updated = await api.responses.update(guid, { response: 'Thank you again, Bob!' });
    assert.equal(updated.data.attributes.response, 'Thank you again, Bob!');
    assert.equal(updated.data.attributes.department, 'Customer care');
    const listed = await api.responses.list('Acme-EN_GB', 'demo-acme-en_gb-2');
    assert.ok(listed.data.some((r) => r.id === guid));
    const counts = await api.responses.count(['demo-acme-en_gb-2', 'demo-acme-en_gb-3']);
    assert.deepEqual(
      counts.counts.find((c) => c.reviewId === 'demo-acme-en_gb-2'),
      { reviewId: 'demo-acme-en_gb-2', responseCount: 1 },
    );
    await api.responses.delete(guid);
    await api.responses.delete(guid);
    await assert.rejects(api.responses.get(guid), (err: unknown) => {
      assert.ok(err instanceof ReviewsApiError);
      assert.equal(err.status, 404);
      assert.equal(err.code, 'RESPONSE_NOT_FOUND');
      assert.ok(err.requestId);
      return true;
    });
  });

  it('files a forget request and reads it back', async () => {
    const api = createClient(options());
    const filed = await api.privacy.forget({ authorId: 'chloe-3', clientNames: ['Acme-DE_DE'] });
    assert.equal(filed.type, 'forgetRequest');
    const read = await api.privacy.getForget(filed.id);
    assert.equal(read.id, filed.id);
    const listed = await api.privacy.listForget({ limit: 10 });
    assert.ok(listed.requests.some((r) => r.id === filed.id));
  });

  it("takes the caller's Idempotency-Key, so a retry of its own work files once", async () => {
    const api = createClient(options());
    const idempotencyKey = randomUUID();
    const first = await api.privacy.forget({ emailAddress: 'own.key@example.com' }, { idempotencyKey });
    const again = await api.privacy.forget({ emailAddress: 'own.key@example.com' }, { idempotencyKey });
    assert.equal(again.id, first.id);
  });

  it('downloads an access export as JSON and as a ZIP archive', async () => {
    const api = createClient(options());
    const filed = await api.privacy.access({ emailAddress: 'alice@example.com' });
    await drainPrivacyQueue(t.runtime.deps);
    const document = await api.privacy.downloadExport(filed.id);
    assert.equal(document.id, filed.id);
    const archive = Buffer.from(await api.privacy.downloadExportArchive(filed.id));
    // A ZIP archive starts with a local file header (PK\x03\x04).
    assert.equal(archive.subarray(0, 4).toString('binary'), 'PK\x03\x04');
  });

  it('throws typed errors with the API codes', async () => {
    const api = createClient(options());
    await assert.rejects(
      api.responses.create('Acme-EN_GB', 'demo-acme-en_gb-1', { department: 'Care', response: '   ' }),
      (err: unknown) =>
        err instanceof ReviewsApiError && err.status === 400 && err.code === 'INVALID_PROPERTY_VALUE',
    );
    await assert.rejects(
      api.privacy.getAccess(randomUUID()),
      (err: unknown) => err instanceof ReviewsApiError && err.status === 404 && err.code === 'NOT_FOUND',
    );
    const wrongSecret = createClient(options({ clientSecret: 'rpa_cs_wrong' }));
    await assert.rejects(
      wrongSecret.responses.list('Acme-EN_GB', 'demo-acme-en_gb-1'),
      (err: unknown) => err instanceof ReviewsApiError && err.status === 401 && err.code === 'invalid_client',
    );
    const noPrivacy = createClient(options({ passkeys: { response: tenant.responsePasskey } }));
    await assert.rejects(noPrivacy.privacy.getForget(randomUUID()), /no privacy passkey/);
  });

  it('waits what Retry-After asks on 429, a bounded number of times, then throws', async () => {
    const limited = await createPasskey(t.runtime.deps, {
      applicationId: tenant.applicationId,
      api: 'response',
      ratePerMinute: 1,
    });
    const waits: number[] = [];
    const counter = countingFetch();
    const api = createClient(
      options({
        passkeys: { response: limited.value },
        fetch: counter.fetch,
        maxRetries: 2,
        sleep: async (ms) => {
          waits.push(ms);
        },
        random: () => 0.5,
      }),
    );
    await api.responses.list('Acme-EN_GB', 'demo-acme-en_gb-1');
    const refused = await api.responses.list('Acme-EN_GB', 'demo-acme-en_gb-1').then(
      () => assert.fail('the second call of the minute was admitted'),
      (err: unknown) => err as ReviewsApiError,
    );
    assert.ok(refused instanceof ReviewsApiError);
    assert.equal(refused.status, 429);
    assert.equal(refused.code, 'RATE_LIMITED');
    assert.ok(refused.retryAfterSeconds !== undefined && refused.retryAfterSeconds >= 1);
    // Three attempts of the second call (the first and two retries), waiting between them.
    assert.equal(counter.sent.filter((p) => p.endsWith('/reviews/demo-acme-en_gb-1')).length, 4);
    assert.equal(waits.length, 2);
    for (const wait of waits) {
      assert.ok(wait >= refused.retryAfterSeconds * 1000, `${wait} ms waited`);
      assert.ok(wait <= (refused.retryAfterSeconds + 1) * 1000 + 60_000, `${wait} ms waited`);
    }
  });
});
