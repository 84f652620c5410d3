import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type PrivacyClient,
  type PrivacyTenant,
  privacyClient,
  seedPrivacyTenant,
} from '../../helpers/privacy-fixtures.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../../helpers/test-runtime.js';

const EMAIL = 'dora.paged@example.com';
const FORMS = [EMAIL, encodeURIComponent(EMAIL), 'dora.paged%40example.com', 'dora.paged'];

/** Query parameters of a link, as a client following it would send them (plus its passkey). */
function queryOf(link: string): Record<string, string> {
  return Object.fromEntries(new URL(link).searchParams);
}

describe(`Privacy API list links never carry an identifier (${TEST_DIALECT})`, () => {
  let t: TestApp;
  let tenant: PrivacyTenant;
  let c: PrivacyClient;
  const ids: string[] = [];

  before(async () => {
    let now = Date.parse('2026-05-01T08:00:00.000Z');
    t = await createTestApp({}, { clock: () => now });
    tenant = await seedPrivacyTenant(t.runtime.deps);
    c = privacyClient(t.app, tenant);
    for (const [body, clientName] of [
      [{ emailAddress: EMAIL }, 'Acme-EN_GB'],
      [{ authorId: 'someone-else' }, 'Acme-EN_GB'],
      [{ emailAddress: EMAIL }, 'Acme-DE_DE'],
    ] as const) {
      now += 1000;
      const res = await c.post('forget', { ...body, clientNames: [clientName] });
      assert.equal(res.statusCode, 201, res.body);
      ids.push(res.json().id);
    }
  });
  after(() => t.close());

  function assertNoIdentifier(text: string): void {
    for (const form of FORMS) assert.ok(!text.includes(form), `${text} carries ${form}`);
  }

  it('pages a filter by e-mail address with links that hold only a cursor', async () => {
    const first = await c.get('/forgetRequests', { emailAddress: EMAIL, limit: '1', status: 'PENDING' });
    assert.equal(first.statusCode, 200, first.body);
    const page1 = first.json();
    assert.deepEqual(
      page1.requests.map((r: { id: string }) => r.id),
      [ids[2]],
    );
    assertNoIdentifier(JSON.stringify(page1.links));
    assertNoIdentifier(page1.nextCursor);
    assert.equal(queryOf(page1.links.next).status, 'PENDING');

    // Following `next` without naming the address again stays within the filter.
    const second = await c.get('/forgetRequests', queryOf(page1.links.next));
    assert.equal(second.statusCode, 200, second.body);
    const page2 = second.json();
    assert.deepEqual(
      page2.requests.map((r: { id: string }) => r.id),
      [ids[0]],
    );
    assert.equal(page2.nextCursor, null);
    assert.equal(page2.links.next, undefined);
    assertNoIdentifier(JSON.stringify(page2.links));

    // `self` gives the same page again.
    const again = await c.get('/forgetRequests', queryOf(page1.links.self));
    assert.deepEqual(again.json().requests, page1.requests);
  });

  it('accepts the filter repeated beside its cursor, and refuses a cursor of another filter', async () => {
    const page1 = (await c.get('/forgetRequests', { emailAddress: EMAIL, limit: '1' })).json();
    const same = await c.get('/forgetRequests', {
      emailAddress: 'Dora.Paged@Example.com',
      cursor: page1.nextCursor,
    });
    assert.equal(same.statusCode, 200, same.body);
    assert.deepEqual(
      same.json().requests.map((r: { id: string }) => r.id),
      [ids[0]],
    );
    const other = await c.get('/forgetRequests', { authorId: 'someone-else', cursor: page1.nextCursor });
    assert.equal(other.statusCode, 400, other.body);
    assert.equal(other.json().errors[0].field, 'cursor');
    assertNoIdentifier(other.body);
  });

  it('keeps filters that carry no personal data in the links as they are', async () => {
    const res = (await c.get('/forgetRequests', { clientName: 'Acme-EN_GB', limit: '1' })).json();
    assert.equal(queryOf(res.links.next).clientName, 'Acme-EN_GB');
    assert.equal(queryOf(res.links.self).clientName, 'Acme-EN_GB');
    assert.equal(queryOf(res.links.self).cursor, undefined);
    // The id filter takes request ids only, so no other text can be echoed through it.
    const byText = await c.get('/forgetRequests', { id: EMAIL });
    assert.equal(byText.statusCode, 400, byText.body);
    assert.equal(byText.json().errors[0].field, 'id');
    const byId = (await c.get('/forgetRequests', { id: ids[0] as string })).json();
    assert.deepEqual(
      byId.requests.map((r: { id: string }) => r.id),
      [ids[0]],
    );
  });
});
