import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  drainPrivacyQueue,
  importReviewsBy,
  type PrivacyTenant,
  privacyClient,
  seedPrivacyTenant,
} from '../helpers/privacy-fixtures.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../helpers/test-runtime.js';
import { unzip } from '../helpers/unzip.js';

const REVIEWS = 15_000;

/** How many lines a file of the archive has; the file must be there. */
function linesOf(files: Map<string, string>, path: string): number {
  const text = files.get(path);
  assert.ok(text !== undefined, `${path} is not in the archive`);
  return text.split('\n').length - 1;
}

describe(`an access export of ${REVIEWS} reviews, streamed (${TEST_DIALECT})`, () => {
  let t: TestApp;
  let tenant: PrivacyTenant;
  let baseUrl: string;
  let requestId: string;
  let wholeBytes = 0;

  before(async () => {
    t = await createTestApp({ WORKER_BATCH_SIZE: '1000' });
    tenant = await seedPrivacyTenant(t.runtime.deps);
    const person = { name: 'Prolific Reviewer', emailAddress: 'prolific@example.com' };
    await importReviewsBy(t.runtime.deps, person, { clientName: 'Acme-EN_GB', count: REVIEWS });
    const filed = await privacyClient(t.app, tenant).post('access', { emailAddress: person.emailAddress });
    requestId = filed.json().id;
    await drainPrivacyQueue(t.runtime.deps);
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => t.close());

  it('downloads every review, as JSON and as a ZIP archive, over a real connection', async () => {
    const url = `${baseUrl}/privacy/v1/accessRequests/${requestId}/export?passkey=${tenant.privacyPasskey}`;
    const headers = { authorization: `Bearer ${tenant.token}` };
    const json = await fetch(url, { headers });
    assert.equal(json.status, 200);
    const text = await json.text();
    wholeBytes = Buffer.byteLength(text);
    const document = JSON.parse(text) as { clients: { clientName: string; reviews: unknown[] }[] };
    const en = document.clients.find((c) => c.clientName === 'Acme-EN_GB');
    assert.equal(en?.reviews.length, REVIEWS);
    const zip = await fetch(`${url}&format=zip`, { headers });
    assert.equal(zip.status, 200);
    const files = await unzip(Buffer.from(await zip.arrayBuffer()));
    assert.equal(linesOf(files, 'Acme-EN_GB/reviews.csv'), REVIEWS + 1);
    assert.equal(linesOf(files, 'Acme-EN_GB/profile.csv'), REVIEWS + 1);
  });

  it('reads the database only as the client takes the bytes: a person erased mid-download is not sent', async () => {
    // Through inject, whose response stream pushes back at 16 KiB: what the server has read is
    // what the client took, without the kernel's socket buffers in between.
    const res = await t.app.inject({
      method: 'GET',
      url: `/privacy/v1/accessRequests/${requestId}/export`,
      query: { passkey: tenant.privacyPasskey },
      headers: { host: 'localhost', authorization: `Bearer ${tenant.token}` },
      payloadAsStream: true,
    });
    assert.equal(res.statusCode, 200);
    const body = res.stream()[Symbol.asyncIterator]();
    let received = ((await body.next()).value as Buffer).length;
    // The client pauses after its first bytes; meanwhile the person asks to be forgotten. A
    // download that had read the whole export up front would go on to send all of it.
    const forget = await privacyClient(t.app, tenant).post('forget', {
      emailAddress: 'prolific@example.com',
    });
    assert.equal(forget.statusCode, 201, forget.body);
    await drainPrivacyQueue(t.runtime.deps);
    await assert.rejects(async () => {
      for (;;) {
        const { done, value } = await body.next();
        if (done) break;
        received += (value as Buffer).length;
      }
    }, /destroyed before completion/);
    assert.ok(wholeBytes > 0 && received < wholeBytes / 2, `${received} bytes sent of ${wholeBytes}`);
  });
});
