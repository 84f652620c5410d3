import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { redactUrl } from '../../src/domain/redact-url.js';

describe('redactUrl', () => {
  it('masks a whole parameter whose name carries a secret, a known name in brackets included', () => {
    const passkey = 'rpa_pk_AbCdEfGhIjKlMnOpQrStUvWxYz012345';
    const random = passkey.slice('rpa_pk_'.length);
    assert.equal(redactUrl(`/a?passkey[${passkey}]=1&limit=5`), '/a?[REDACTED]&limit=5');
    assert.equal(redactUrl(`/a?passkey[${random}]=1`), '/a?[REDACTED]');
    assert.equal(redactUrl(`/a?token[rpa%5Fpk%5F${random}]`), '/a?[REDACTED]');
    assert.equal(redactUrl('/a?passkey[0]=1'), '/a?passkey[0]=[REDACTED]', 'an ordinary index stays');
  });

  it('keeps the values of parameters that carry no credential or personal data', () => {
    assert.equal(
      redactUrl('/privacy/v1/forgetRequests?status=PENDING&limit=5&passkey=pk&emailAddress=a%40b.c'),
      '/privacy/v1/forgetRequests?status=PENDING&limit=5&passkey=[REDACTED]&emailAddress=[REDACTED]',
    );
    assert.equal(redactUrl('/a?%70asskey=pk&pass%6bey=pk'), '/a?%70asskey=[REDACTED]&pass%6bey=[REDACTED]');
    assert.equal(redactUrl('/a?carol@example.com'), '/a?[REDACTED]');
    assert.equal(redactUrl('/a?status=%ZZ'), '/a?status=[REDACTED]');
    assert.equal(
      redactUrl('/a?id=carol%40example.com&clientName=carol@x'),
      '/a?id=[REDACTED]&clientName=[REDACTED]',
    );
    assert.equal(
      redactUrl('/a?id=9df02479-0182-4a34-bbec-ecf947c3d3df&submittedAfter=2026-01-01T00:00:00Z'),
      '/a?id=9df02479-0182-4a34-bbec-ecf947c3d3df&submittedAfter=2026-01-01T00:00:00Z',
    );
    assert.equal(redactUrl('/a?%ZZ=1'), '/a?[REDACTED]');
    assert.equal(redactUrl('/a'), '/a');
    assert.equal(
      redactUrl('/privacy/v1/forgetRequests/carol%40example.com/export?passkey=x'),
      '/privacy/v1/forgetRequests/[REDACTED]/export?passkey=[REDACTED]',
    );
    assert.equal(
      redactUrl('/response/v1/clientResponses/Acme-EN_GB/reviews/demo-acme-en_gb-1'),
      '/response/v1/clientResponses/Acme-EN_GB/reviews/demo-acme-en_gb-1',
    );
  });

  /**
   * A run of base64url characters shaped like a secret's random part (domain/credentials.ts): 32,
   * 43 or at least 83 characters, with both upper- and lower-case letters.
   */
  const secretShaped = (s: string) =>
    (s.match(/[A-Za-z0-9_-]+/g) ?? []).some(
      (run) => ([32, 43].includes(run.length) || run.length >= 83) && /[A-Z]/.test(run) && /[a-z]/.test(run),
    );
  /** What redactUrl promises of a path, one segment at a time (see LOGGED_SEGMENT). */
  const maskedSegment = (s: string) =>
    /^[A-Za-z0-9_.:~-]{0,200}$/.test(s) && !/rpa_cs_|rpa_at_|rpa_pk_|whsec_/i.test(s) && !secretShaped(s)
      ? s
      : '[REDACTED]';

  it('masks a path segment by segment, whether or not it has anything to mask', () => {
    const piece = fc.constantFrom(
      'a',
      'Z',
      '9',
      '-',
      '.',
      '~',
      ':',
      '_',
      '/',
      '@',
      '%40',
      '+',
      ' ',
      'rpa_pk_',
      'whsec_',
      'é',
      // Two side by side are as long as a passkey's random part.
      'AbCdEfGhIjKlMnOp',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.nat(220), (pieces, repeat) => {
        const path = `/${pieces.join('')}${'a'.repeat(repeat % 3 === 0 ? repeat : 0)}`;
        assert.equal(redactUrl(path), path.split('/').map(maskedSegment).join('/'));
      }),
      { numRuns: 2000 },
    );
  });
});
