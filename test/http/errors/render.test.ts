import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { generateCredential } from '../../../src/domain/credentials.js';
import { AppError } from '../../../src/errors.js';
import { errorShapeFor } from '../../../src/http/errors/render.js';
import type { TestTenant } from '../../helpers/credentials.js';
import { TEST_DIALECT } from '../../helpers/test-runtime.js';
import { createResponseHarness, EN_REVIEW, type ResponseHarness } from '../response/response-fixtures.js';

const PREFIX = /^rpa_[a-z]+_/;
const randomPart = (credential: string) => credential.replace(PREFIX, '');

/** Every byte as %XX, so no character of the value is written as itself. */
const percentEncodeAll = (s: string) =>
  [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

/** The ways a caller may send a credential where an id belongs. */
function forms(credential: string): string[] {
  const random = randomPart(credential);
  return [credential, random, credential.replaceAll('_', '%5F'), percentEncodeAll(credential)];
}

const SECRETS = [
  generateCredential('passkey'),
  generateCredential('clientSecret'),
  generateCredential('adminToken'),
];

function assertNotRepeated(text: string): void {
  for (const secret of SECRETS) {
    for (const part of [secret, randomPart(secret)])
      assert.ok(!text.includes(part), `${text} repeats ${part}`);
  }
}

describe('error bodies name the path, never a secret in it', () => {
  for (const [api, prefix, member] of [
    ['Response API', '/response/v1/clientResponses', 'requestURI'],
    ['Privacy API', '/privacy/v1/forgetRequests', 'instance'],
    ['admin API', '/admin/v1/production/applications', 'instance'],
  ] as const) {
    it(`${api}: \`${member}\` and the detail mask a segment carrying a secret, with or without its prefix`, () => {
      for (const secret of SECRETS) {
        for (const sent of forms(secret)) {
          const path = `${prefix}/${sent}/passkeys`;
          const error = new AppError('NOT_FOUND', { detail: `no resource at GET ${path}; not "${sent}"` });
          const body = errorShapeFor(path).body(error, path);
          assert.equal(body[member], `${prefix}/[REDACTED]/passkeys`);
          assertNotRepeated(JSON.stringify(body));
          assert.ok(!JSON.stringify(body).includes(sent));
        }
      }
    });
  }

  it('keeps ids, GUIDs, client names and review ids as sent', () => {
    const path =
      '/response/v1/clientResponses/Acme-EN_GB/reviews/demo-acme-en_gb-1/9DF02479-0182-4A34-BBEC-ECF947C3D3DF/' +
      '019a0000-0000-7000-8000-000000000000/rpa_ci_AbCdEfGhIjKlMnOpQrStUv/9df024790182' +
      '4a34bbececf947c3d3df';
    const body = errorShapeFor(path).body(new AppError('NOT_FOUND'), path);
    assert.equal(body.requestURI, path);
  });
});

describe(`error answers repeat no secret sent in a path or filter (${TEST_DIALECT})`, () => {
  let h: ResponseHarness;
  let tenant: TestTenant;
  before(async () => {
    h = await createResponseHarness();
    tenant = h.tenant;
  });
  after(() => h.close());

  it('masks passkeys and client secrets in `requestURI`, `instance` and the detail', async () => {
    const own = [tenant.responsePasskey, tenant.privacyPasskey, tenant.clientSecret];
    const privacy = (path: string) => h.call(path, { passkey: tenant.privacyPasskey });
    for (const secret of [...own, ...SECRETS]) {
      for (const sent of forms(secret)) {
        const answers = [
          await h.call(`/response/v1/clientResponses/${sent}/reviews/${EN_REVIEW}`),
          await h.call(`/response/v1/clientResponses/${sent}/author`),
          await h.call(`/contentmanagement/v1/clientResponses/${sent}`),
          await privacy(`/privacy/v1/forgetRequests/${sent}`),
          await privacy(`/privacy/v1/accessRequests/${sent}/export`),
          await privacy(`/privacy/v1/${sent}`),
          await privacy(`/privacy/v1/forgetRequests?clientName=${sent}`),
        ];
        for (const res of answers) {
          assert.ok(res.statusCode >= 400, `${res.statusCode} ${res.body}`);
          for (const part of [secret, randomPart(secret), sent]) {
            assert.ok(!res.body.includes(part), `${res.body} repeats ${part}`);
          }
        }
      }
    }
    const logs = h.t.runtime.logs.text();
    for (const secret of [...own, ...SECRETS])
      assert.ok(!logs.includes(randomPart(secret)), 'a log line has a secret');
  });
});
