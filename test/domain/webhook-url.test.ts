import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { isPublicAddress, parseWebhookUrl } from '../../src/domain/webhook-url.js';

const strict = { allowHttpHosts: [], allowPrivateHosts: [] };

describe('webhook endpoint URLs', () => {
  it('accepts public https URLs, path and query included', () => {
    assert.equal(
      parseWebhookUrl('https://hooks.example.com/rpa?k=1', strict).href,
      'https://hooks.example.com/rpa?k=1',
    );
    assert.equal(parseWebhookUrl('https://8.8.8.8/x', strict).host, '8.8.8.8');
    assert.equal(parseWebhookUrl('https://[2606:4700::1111]/x', strict).hostname, '[2606:4700::1111]');
  });

  it('refuses http unless the host is allowed, and other schemes always', () => {
    assert.throws(
      () => parseWebhookUrl('http://hooks.example.com/', strict),
      /https only.*WEBHOOK_ALLOW_HTTP_HOSTS/,
    );
    const allowed = { allowHttpHosts: ['hooks.internal'], allowPrivateHosts: [] };
    assert.equal(parseWebhookUrl('http://hooks.internal:8080/x', allowed).port, '8080');
    for (const url of [
      'ftp://hooks.example.com/',
      'file:///etc/passwd',
      'gopher://x/',
      'javascript:alert(1)',
    ])
      assert.throws(() => parseWebhookUrl(url, allowed), /https only/, url);
    assert.throws(() => parseWebhookUrl('hooks.example.com/x', strict), /absolute URL/);
  });

  it('refuses credentials, fragments and very long URLs', () => {
    assert.throws(() => parseWebhookUrl('https://user:pw@hooks.example.com/', strict), /credentials/);
    assert.throws(() => parseWebhookUrl('https://hooks.example.com/#x', strict), /fragment/);
    assert.throws(() => parseWebhookUrl(`https://hooks.example.com/${'a'.repeat(2000)}`, strict), /longer/);
  });

  it('refuses loopback, private, link-local and other non-public addresses in every spelling', () => {
    for (const url of [
      'https://127.0.0.1/',
      'https://2130706433/', // 127.0.0.1 as one number
      'https://0x7f.1/',
      'https://0177.0.0.1/',
      'https://10.1.2.3/',
      'https://172.16.0.1/',
      'https://192.168.1.1/',
      'https://169.254.169.254/latest/meta-data/', // cloud metadata
      'https://100.64.0.1/',
      'https://0.0.0.0/',
      'https://[::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:a9fe:a9fe]/',
      'https://[fe80::1]/',
      'https://[fd00::1]/',
      'https://localhost/',
      'https://LOCALHOST./',
      'https://api.localhost/',
    ])
      assert.throws(() => parseWebhookUrl(url, strict), /not a public address|loopback/, url);
  });

  it('refuses IPv6 addresses that embed an IPv4 one: compatible, translated, NAT64, 6to4, Teredo', () => {
    for (const url of [
      'https://[::127.0.0.1]/', // IPv4-compatible, deprecated (RFC 4291 §2.5.5.1)
      'https://[0:0:0:0:0:0:127.0.0.1]/',
      'https://[::7f00:1]/',
      'https://[::169.254.169.254]/',
      'https://[::8.8.8.8]/',
      'https://[::ffff:0:127.0.0.1]/', // IPv4-translated (RFC 2765)
      'https://[::ffff:0:a00:1]/',
      'https://[64:ff9b::127.0.0.1]/', // NAT64 (RFC 6052)
      'https://[64:ff9b::a9fe:a9fe]/',
      'https://[64:ff9b:1::7f00:1]/',
      'https://[2002:7f00:1::]/', // 6to4 of 127.0.0.1 (RFC 3056)
      'https://[2002:a9fe:a9fe::1]/',
      'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', // Teredo, client 127.0.0.1 inverted
      'https://[3fff::1]/', // documentation (RFC 9637)
    ])
      assert.throws(() => parseWebhookUrl(url, strict), /not a public address/, url);
    const octet = fc.integer({ min: 0, max: 255 });
    fc.assert(
      fc.property(fc.tuple(octet, octet, octet, octet), (parts) => {
        const v4 = parts.join('.');
        return [`::${v4}`, `::ffff:0:${v4}`, `64:ff9b::${v4}`].every((a) => !isPublicAddress(a));
      }),
    );
    // Mapped addresses are judged by the IPv4 address they map.
    assert.ok(isPublicAddress('::ffff:8.8.8.8'));
    assert.ok(!isPublicAddress('::ffff:127.0.0.1'));
  });

  it('lets an operator allow a private host by name', () => {
    const policy = { allowHttpHosts: ['127.0.0.1'], allowPrivateHosts: ['127.0.0.1', 'localhost', '::1'] };
    assert.equal(parseWebhookUrl('http://127.0.0.1:9000/h', policy).port, '9000');
    assert.equal(parseWebhookUrl('https://localhost/h', policy).hostname, 'localhost');
    assert.equal(parseWebhookUrl('https://[::1]/h', policy).hostname, '[::1]');
    // Allowing one private host allows no other.
    assert.throws(() => parseWebhookUrl('https://10.0.0.1/', policy), /not a public address/);
  });

  it('judges every IPv4 address in the private and loopback ranges non-public, mapped into IPv6 too', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    fc.assert(
      fc.property(
        fc.oneof(
          fc.tuple(fc.constant(10), octet, octet, octet),
          fc.tuple(fc.constant(127), octet, octet, octet),
          fc.tuple(fc.constant(169), fc.constant(254), octet, octet),
          fc.tuple(fc.constant(172), fc.integer({ min: 16, max: 31 }), octet, octet),
          fc.tuple(fc.constant(192), fc.constant(168), octet, octet),
        ),
        (parts) => {
          const v4 = parts.join('.');
          return !isPublicAddress(v4) && !isPublicAddress(`::ffff:${v4}`);
        },
      ),
    );
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700::1111', '::ffff:8.8.8.8'])
      assert.ok(isPublicAddress(a), a);
    assert.ok(!isPublicAddress('not-an-address'));
  });
});
