import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAdminClient, ReviewsApiError } from '../../sdk/src/index.js';
import { createTestAdminApp, type TestAdminApp } from '../helpers/test-admin-app.js';
import { TEST_DIALECT } from '../helpers/test-runtime.js';

describe(`the SDK's admin client on ${TEST_DIALECT}`, () => {
  let t: TestAdminApp;
  let baseUrl: string;
  before(async () => {
    t = await createTestAdminApp();
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => t.close());

  it('creates, lists every page and reads with types from the admin document', async () => {
    const token = (await t.bearer('tenancy:read', 'tenancy:write')).slice('Bearer '.length);
    const admin = createAdminClient({ baseUrl, token });
    for (let i = 0; i < 5; i++) {
      const client = await admin.call(
        admin.api.POST('/admin/v1/{environment}/clients', {
          params: { path: { environment: 'staging' } },
          body: { name: `Sdk-${i}` },
        }),
      );
      assert.equal(client.name, `Sdk-${i}`);
    }
    const all = await admin.all(
      admin.api.GET('/admin/v1/{environment}/clients', {
        params: { path: { environment: 'staging' }, query: { limit: 2 } },
      }),
    );
    assert.deepEqual(
      all.map((c) => c.name),
      ['Sdk-0', 'Sdk-1', 'Sdk-2', 'Sdk-3', 'Sdk-4'],
    );
  });

  it('retries a create after a 503 with the same Idempotency-Key: one object', async () => {
    const token = (await t.bearer('tenancy:write', 'tenancy:read')).slice('Bearer '.length);
    const keys: string[] = [];
    let first = true;
    const admin = createAdminClient({
      baseUrl,
      token,
      sleep: async () => {},
      fetch: async (request) => {
        keys.push(request.headers.get('idempotency-key') ?? '');
        const answer = await fetch(request);
        if (!first) return answer;
        first = false;
        // The create ran, but its answer was lost on the way back.
        return new Response(null, { status: 503, headers: { 'retry-after': '1' } });
      },
    });
    const created = await admin.call(
      admin.api.POST('/admin/v1/{environment}/applications', {
        params: { path: { environment: 'staging' } },
        body: { name: 'Retried', clientNames: [] },
      }),
    );
    assert.equal(keys.length, 2);
    assert.equal(keys[0], keys[1]);
    const named = (
      await admin.all(
        admin.api.GET('/admin/v1/{environment}/applications', {
          params: { path: { environment: 'staging' } },
        }),
      )
    ).filter((a) => a.name === 'Retried');
    assert.deepEqual(
      named.map((a) => a.applicationId),
      [created.applicationId],
    );
  });

  it('throws a typed error naming the code', async () => {
    const token = (await t.bearer('tenancy:read')).slice('Bearer '.length);
    const admin = createAdminClient({ baseUrl, token });
    await assert.rejects(
      admin.call(
        admin.api.POST('/admin/v1/{environment}/clients', {
          params: { path: { environment: 'staging' } },
          body: { name: 'Refused' },
        }),
      ),
      (err: unknown) =>
        err instanceof ReviewsApiError && err.status === 403 && err.code === 'INSUFFICIENT_SCOPE',
    );
  });

  it('throws the typed error for a later page, also when its answer is not JSON', async () => {
    const token = (await t.bearer('tenancy:read', 'tenancy:write')).slice('Bearer '.length);
    const writer = createAdminClient({ baseUrl, token });
    for (const name of ['Paged-0', 'Paged-1'])
      await writer.call(
        writer.api.POST('/admin/v1/{environment}/clients', {
          params: { path: { environment: 'staging' } },
          body: { name },
        }),
      );
    const pages: string[] = [];
    const admin = createAdminClient({
      baseUrl,
      token,
      fetch: async (request) => {
        pages.push(new URL(request.url).search);
        if (pages.length === 1) return fetch(request);
        // As a proxy in front of the listener may answer.
        return new Response('<html>Bad Gateway</html>', {
          status: 502,
          headers: { 'content-type': 'text/html' },
        });
      },
    });
    await assert.rejects(
      admin.all(
        admin.api.GET('/admin/v1/{environment}/clients', {
          params: { path: { environment: 'staging' }, query: { limit: 1 } },
        }),
      ),
      (err: unknown) => err instanceof ReviewsApiError && err.status === 502 && err.code === 'HTTP_502',
    );
    assert.equal(pages.length, 2);
    assert.match(pages[1] ?? '', /cursor=/);
  });
});
