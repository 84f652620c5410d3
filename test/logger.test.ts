import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '../src/logger.js';
import type { TestTenant } from './helpers/credentials.js';
import { LogCapture, TEST_DIALECT } from './helpers/test-runtime.js';
import { createResponseHarness, type ResponseHarness } from './http/response/response-fixtures.js';

const EMAIL = 'carol.logged@example.com';

/** Every UTF-8 byte as %XX, so no character of the value is written as itself. */
const percentEncodeAll = (s: string) =>
  [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

/** The forms a value can take in a request line or a log line. */
function forms(value: string): string[] {
  return [value, encodeURIComponent(value), percentEncodeAll(value), value.toLowerCase()];
}

describe(`no credential or identifier reaches a log line, however the query encodes it (${TEST_DIALECT})`, () => {
  let h: ResponseHarness;
  let tenant: TestTenant;
  let responseGuid: string;

  before(async () => {
    h = await createResponseHarness();
    tenant = h.tenant;
    responseGuid = (
      await h.create('Acme-EN_GB', 'demo-acme-en_gb-1', { department: 'Care', response: 'Thanks' })
    ).json().data.id;
  });
  after(() => h.close());

  function assertNotLogged(values: string[]): void {
    const logs = h.t.runtime.logs.text();
    for (const value of values) {
      for (const form of forms(value)) assert.ok(!logs.includes(form), `a log line contains ${form}`);
    }
  }

  it('serves a passkey under an encoded name and logs neither it nor an encoded identifier', async () => {
    const pk = tenant.responsePasskey;
    const author = `/response/v1/clientResponses/${responseGuid}/author`;
    const auth = { host: 'localhost', authorization: `Bearer ${tenant.token}` };
    const served = await h.t.app.inject({ url: `${author}?%70asskey=${pk}`, headers: auth });
    assert.equal(served.statusCode, 200, served.body);
    const variants = [
      `?pass%6bey=${pk}`,
      `?PassKey=${pk}`,
      `?passkey[]=${pk}`,
      `?passkey%5B%5D=${pk}`,
      `?passkey=${pk}&passkey=${pk}`,
      `?x=1&&passkey=${percentEncodeAll(pk)}`,
      `?passkey=${pk}#frag`,
      `?${pk}`,
      `?${pk}=1`,
    ];
    for (const query of variants) await h.t.app.inject({ url: `${author}${query}`, headers: auth });

    const list = '/privacy/v1/forgetRequests';
    const ppk = tenant.privacyPasskey;
    const queries = [
      `?passkey=${ppk}&%65mailAddress=${encodeURIComponent(EMAIL)}`,
      `?passkey=${ppk}&emailAddress=${percentEncodeAll(EMAIL)}`,
      `?passkey=${ppk}&EMAILADDRESS=${EMAIL}`,
      `?passkey=${ppk}&emailAddress[]=${EMAIL}`,
      `?passkey=${ppk}&phone%4eumber=%2B44%20${EMAIL}`,
      `?passkey=${ppk}&client_secret=${EMAIL}`,
      `?passkey=${ppk}&access_token=${EMAIL}`,
    ];
    for (const query of queries) await h.t.app.inject({ url: `${list}${query}`, headers: auth });
    // A credential where an id belongs: a path segment, a filter shaped like a client name, the request id.
    await h.t.app.inject({ url: `/privacy/v1/forgetRequests/${ppk}?passkey=${ppk}`, headers: auth });
    await h.t.app.inject({ url: `${list}?passkey=${ppk}&clientName=${ppk}`, headers: auth });
    const traced = await h.t.app.inject({
      url: `${author}?passkey=${pk}`,
      headers: { ...auth, 'x-request-id': pk },
    });
    assert.notEqual(traced.headers['x-request-id'], pk);
    assertNotLogged([pk, ppk, EMAIL]);
    assert.match(h.t.runtime.logs.text(), /forgetRequests\?passkey=\[REDACTED\]/);
  });

  it("masks a credential's random part sent without its prefix, in a path, a filter or the request id", async () => {
    const auth = { host: 'localhost', authorization: `Bearer ${tenant.token}` };
    const ppk = tenant.privacyPasskey;
    const randomParts = [tenant.responsePasskey, ppk, tenant.clientSecret].map((v) =>
      v.replace(/^rpa_[a-z]+_/, ''),
    );
    const list = '/privacy/v1/forgetRequests';
    for (const random of randomParts) {
      await h.t.app.inject({ url: `${list}/${random}?passkey=${ppk}`, headers: auth });
      await h.t.app.inject({ url: `${list}?passkey=${ppk}&clientName=${random}`, headers: auth });
      await h.t.app.inject({ url: `/response/v1/clientResponses/${random}/author`, headers: auth });
      const traced = await h.t.app.inject({
        url: `${list}?passkey=${ppk}`,
        headers: { ...auth, 'x-request-id': random },
      });
      assert.notEqual(traced.headers['x-request-id'], random);
    }
    await h.t.app.inject({
      url: `/response/v1/clientResponses/${responseGuid}/author?passkey=${tenant.responsePasskey}`,
      headers: auth,
    });
    assertNotLogged(randomParts);
    // The ids the service makes stay readable.
    assert.match(h.t.runtime.logs.text(), new RegExp(`/response/v1/clientResponses/${responseGuid}/author`));
  });
});

describe('log lines', () => {
  it('carry pino’s ISO time, in order', () => {
    const logs = new LogCapture();
    const logger = createLogger('info', logs);
    for (let i = 0; i < 50; i++) logger.info({ i }, 'tick');
    const times = logs.lines.map((l) => (JSON.parse(l) as { time: string }).time);
    for (const time of times) {
      assert.match(time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.equal(new Date(time).toISOString(), time);
    }
    assert.deepEqual([...times].sort(), times, 'in order');
  });

  it('carry the time of each line to the millisecond across seconds, minutes and years', (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: Date.UTC(2026, 11, 31, 23, 59, 58, 998) });
    const logs = new LogCapture();
    const logger = createLogger('info', logs);
    const expected: string[] = [];
    for (const step of [0, 1, 1, 7, 93, 899, 1, 1000, 60_000, 5]) {
      t.mock.timers.tick(step);
      expected.push(new Date().toISOString());
      logger.info('tick');
    }
    assert.deepEqual(
      logs.lines.map((l) => (JSON.parse(l) as { time: string }).time),
      expected,
    );
  });
});
