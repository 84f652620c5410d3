import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Logger } from 'pino';
import { loadConfig } from '../../src/config.js';
import { type AccessAnswer, type AccessRequest, accessLine } from '../../src/http/access-line.js';
import { createAccessLog } from '../../src/http/access-log.js';
import { requestIdOf } from '../../src/http/request-id.js';
import { createLogger } from '../../src/logger.js';

/** A logger writing into an array, each line the string pino (or the access log) handed it. */
function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  return { logger: createLogger('info', { write: (line: string) => void lines.push(line) }), lines };
}

const config = loadConfig({});

/** The line as pino's generic path wrote it before (the public listener's accessLogger, the admin's request.log). */
function pinoLine(admin: boolean, request: AccessRequest, answer: AccessAnswer): string {
  const { logger, lines } = capturingLogger();
  const req = { method: request.method, url: request.url, host: request.host, ip: request.ip };
  const common = {
    req,
    route: answer.route,
    status: answer.status,
    ms: Math.round(answer.ms * 1000) / 1000,
  };
  const error = answer.status >= 400 ? (request.errorCode ?? undefined) : undefined;
  if (admin) {
    logger
      .child({ reqId: request.id })
      .info({ ...common, actor: answer.actor, error }, 'admin request completed');
  } else {
    const { applicationId, passkeyId } = answer;
    logger
      .child({}, { redact: [] })
      .info({ reqId: request.id, ...common, applicationId, passkeyId, error }, 'request completed');
  }
  return lines[0] as string;
}

function newLine(admin: boolean, request: AccessRequest, answer: AccessAnswer): string {
  const { logger, lines } = capturingLogger();
  const msg = admin ? 'admin request completed' : 'request completed';
  createAccessLog({ config, logger }, { msg, sampled: !admin }).write(request, answer);
  return lines[0] as string;
}

/** The line's members in order, the time left out: two readings of one second may differ. */
const withoutTime = (line: string) => JSON.stringify({ ...JSON.parse(line), time: undefined });

const request = (fields: Partial<AccessRequest> = {}): AccessRequest => ({
  id: 'f3c1a9e2-8c1d-4a43-9d7e-0d5b1e6f7a21',
  method: 'GET',
  url: '/response/v1/clientResponses/Acme-EN_GB/reviews/demo-1?passkey=rpa_pk_AbCdEfGhIjKlMnOpQrStUvWxYz012345',
  host: 'api.example.com',
  ip: '203.0.113.9',
  errorCode: null,
  traceId: null,
  ...fields,
});
const answer = (fields: Partial<AccessAnswer> = {}): AccessAnswer => ({
  route: '/response/v1/clientResponses/:client/reviews/:reviewId',
  status: 200,
  ms: 1.2345678,
  applicationId: '0b6c3c6e-6f0e-4f1e-9a55-2b1f4c7d8e90',
  passkeyId: '5d2f9a1b-3c4e-4d5f-8a6b-7c8d9e0f1a2b',
  actor: undefined,
  ...fields,
});

// Two lone surrogates (a dash between them), then a pair.
const ODD = '"\\\u0000\u0001\u001f\u007f\u0085\u2028\u2029\ud800-\udfff😀é';

const CASES: [string, boolean, AccessRequest, AccessAnswer][] = [
  ['a 200 with its caller', false, request(), answer()],
  [
    'a 404 without route or caller',
    false,
    request({ url: '/nowhere', errorCode: 'NOT_FOUND' }),
    answer({ route: undefined, status: 404, applicationId: undefined, passkeyId: undefined }),
  ],
  [
    'a 401 with a masked passkey',
    false,
    request({ errorCode: 'INVALID_TOKEN' }),
    answer({ status: 401, passkeyId: undefined }),
  ],
  ['a 500 without a code', false, request({ errorCode: null }), answer({ status: 500 })],
  ['a 2xx, whose code is left out', false, request({ errorCode: 'RATE_LIMITED' }), answer({ status: 204 })],
  ['no host, no address', false, request({ host: undefined, ip: undefined }), answer({ ms: 0 })],
  ['a long, slow call', false, request({ url: `/a/${'b'.repeat(300)}` }), answer({ ms: 12_345.678_91 })],
  [
    'odd characters in a masked query name and the host',
    false,
    request({
      url: `/a?passkey[${ODD}]=x&status=OK`,
      host: `h${ODD}`,
      method: `G${ODD}`,
      errorCode: 'NOT_FOUND',
    }),
    answer({ status: 404 }),
  ],
  [
    'odd characters in every field a caller may choose',
    false,
    request({ method: ODD, host: ODD, ip: `::1${ODD}`, errorCode: 'RATE_LIMITED' }),
    answer({ status: 429 }),
  ],
  [
    'odd characters past 100 characters',
    false,
    request({ url: `/a?passkey[${'x'.repeat(120)}${ODD}]`, host: `${'h'.repeat(120)}${ODD}` }),
    answer(),
  ],
  [
    'an admin 200',
    true,
    request({ url: '/admin/v1/production/clients?limit=5' }),
    answer({
      route: '/admin/v1/:environment/clients',
      applicationId: undefined,
      passkeyId: undefined,
      actor: 'admin-token:9c1e',
    }),
  ],
  [
    'an admin 401 without a caller',
    true,
    request({ url: '/admin/v1/production/clients', errorCode: 'INVALID_TOKEN' }),
    answer({ status: 401, applicationId: undefined, passkeyId: undefined }),
  ],
  [
    'an admin call with odd characters',
    true,
    request({ ip: ODD, host: ODD }),
    answer({ actor: `cli:${ODD}`, applicationId: undefined, passkeyId: undefined }),
  ],
];

/** What a JSON string holds as it is (access-line.ts). */
const PRINTABLE = /^[ !#-[\]-~]*$/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for.
const RAW_LINE_BREAKING = /[\u0000-\u001f\u2028\u2029]/;

describe('the access line', () => {
  for (const [name, admin, req, ans] of CASES) {
    it(`holds what pino wrote, in its order: ${name}`, () => {
      const before = pinoLine(admin, req, ans);
      const after = newLine(admin, req, ans);
      assert.equal(withoutTime(after), withoutTime(before));
      assert.match(JSON.parse(after).time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      // Where pino escaped as JSON.stringify does, the very text is the same.
      if (!/[\u2028\u2029\ud800-\udfff]/.test(before)) {
        const time = /"time":"[^"]+"/;
        assert.equal(after.replace(time, ''), before.replace(time, ''));
      }
    });
  }

  it('is one line of well-formed text, whatever characters its fields hold', () => {
    for (const [, admin, req, ans] of CASES) {
      const line = newLine(admin, req, ans);
      assert.ok(line.endsWith('}\n'));
      assert.doesNotMatch(line.slice(0, -1), RAW_LINE_BREAKING);
      assert.doesNotMatch(line, LONE_SURROGATE);
    }
  });

  it('escapes an odd trace id, which another system may have chosen', () => {
    const line = newLine(false, request({ traceId: `t${ODD}` }), answer());
    assert.equal(JSON.parse(line).traceId, `t${ODD}`);
    assert.doesNotMatch(line.slice(0, -1), RAW_LINE_BREAKING);
  });

  it('writes request ids as they are, which hold nothing to escape whatever X-Request-Id says', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.stringMatching(/^[A-Za-z0-9._-]{1,128}$/)),
        (given) => {
          const id = requestIdOf({ headers: { 'x-request-id': given } } as never);
          assert.match(id, PRINTABLE);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('names the trace of a traced request, after the error code', () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const traced = JSON.parse(
      newLine(false, request({ traceId, errorCode: 'NOT_FOUND' }), answer({ status: 404 })),
    );
    assert.equal(traced.traceId, traceId);
    assert.deepEqual(Object.keys(traced).slice(-3), ['error', 'traceId', 'msg']);
    const admin = JSON.parse(newLine(true, request({ traceId }), answer({ actor: 'admin-token:1' })));
    assert.equal(admin.traceId, traceId);
    assert.equal(JSON.parse(newLine(false, request(), answer())).traceId, undefined, 'untraced: no member');
  });
});

/** Base64url text of `length` characters holding both cases, as a secret's random part has. */
const randomPart = (length: number) =>
  fc
    .string({
      unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'),
      minLength: length,
      maxLength: length,
    })
    .filter((s) => /[a-z]/.test(s) && /[A-Z]/.test(s));

/** A secret credential as this server makes them, with its prefix or without (domain/credentials.ts). */
const credential = fc.oneof(
  fc.tuple(
    fc.constantFrom('rpa_pk_', 'rpa_cs_', 'rpa_adm_', 'rpa_at_', 'whsec_', 'RPA_PK_', ''),
    randomPart(32),
  ),
  fc.tuple(fc.constantFrom('rpa_cs_', 'rpa_adm_', ''), randomPart(43)),
  fc.tuple(fc.constantFrom('rpa_at_', ''), fc.integer({ min: 83, max: 220 }).chain(randomPart)),
);

const percentEncodeAll = (s: string) =>
  [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

/** Where a caller can put a credential in a request target: whole, or between non-base64url characters. */
const placed = (secret: string) =>
  fc.constantFrom(
    `/privacy/v1/forgetRequests/${secret}`,
    `/response/v1/clientResponses/${secret}/author`,
    `/a/x.${secret}.y/b`,
    `/a/${percentEncodeAll(secret)}`,
    `/a/${secret.replace(/_/g, '%5F')}`,
    `/a?passkey=${secret}`,
    `/a?%70asskey=${secret}`,
    `/a?passkey[]=${secret}`,
    `/a?passkey[${secret}]=1`,
    `/a?x[${secret}]=1`,
    `/a?clientName=${secret}`,
    `/a?status=${secret}`,
    `/a?id=${secret}`,
    `/a?limit=5&${secret}`,
    `/a?${secret}=1`,
    `/a?${percentEncodeAll(secret)}=1`,
    `/a?token=${encodeURIComponent(secret)}&status=OK`,
    `/a/b?cursor=${secret}#${secret}`,
  );

describe('no credential reaches the access line', () => {
  it('wherever a URL carries it, with or without its prefix', () => {
    fc.assert(
      fc.property(
        credential.chain(([prefix, random]) =>
          placed(`${prefix}${random}`).map((url) => ({ random, secret: `${prefix}${random}`, url })),
        ),
        ({ random, secret, url }) => {
          const line = accessLine(
            '{"level":30',
            'request completed',
            request({ url }),
            answer({ status: 401 }),
          );
          for (const form of [secret, random, percentEncodeAll(secret), percentEncodeAll(random)])
            assert.ok(!line.includes(form), `${url} -> ${line}`);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
