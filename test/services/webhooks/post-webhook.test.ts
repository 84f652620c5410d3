import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { postWebhook } from '../../../src/services/webhooks/post-webhook.js';
import { type Receiver, startReceiver } from '../../helpers/webhook-receiver.js';

const message = { headers: { 'webhook-id': 'msg_1' }, body: '{}' };

describe('one webhook attempt', () => {
  let inbox: Receiver;
  let port: string;
  before(async () => {
    inbox = await startReceiver((n) =>
      n === 0 ? { status: 302, headers: { location: 'http://127.0.0.1:1/' } } : { status: 204 },
    );
    port = new URL(inbox.url).port;
  });
  after(() => inbox.close());

  it('connects only to public addresses: a name resolving to loopback is refused at connection time', async () => {
    const policy = { allowHttpHosts: ['localhost'], allowPrivateHosts: [] };
    const r = await postWebhook(new URL(`http://localhost:${port}/h`), message, { timeoutMs: 2000, policy });
    assert.deepEqual(r, { answered: false, error: 'address not allowed' });
    const literal = await postWebhook(new URL(`http://127.0.0.1:${port}/h`), message, {
      timeoutMs: 2000,
      policy: { allowHttpHosts: ['127.0.0.1'], allowPrivateHosts: [] },
    });
    assert.deepEqual(literal, { answered: false, error: 'address not allowed' });
    assert.equal(inbox.received.length, 0, 'nothing reached the receiver');
  });

  it('refuses at delivery an IPv6 literal that embeds loopback, however spelled', async () => {
    for (const host of ['::7f00:1', '::ffff:0:7f00:1', '64:ff9b::7f00:1']) {
      const r = await postWebhook(new URL(`http://[${host}]:${port}/h`), message, {
        timeoutMs: 2000,
        policy: { allowHttpHosts: [host], allowPrivateHosts: [] },
      });
      assert.deepEqual(r, { answered: false, error: 'address not allowed' }, host);
    }
    assert.equal(inbox.received.length, 0, 'nothing reached the receiver');
  });

  it('refuses http to a host not allowed it, even one allowed private addresses', async () => {
    const r = await postWebhook(new URL(`http://127.0.0.1:${port}/h`), message, {
      timeoutMs: 2000,
      policy: { allowHttpHosts: [], allowPrivateHosts: ['127.0.0.1'] },
    });
    assert.deepEqual(r, { answered: false, error: 'http not allowed' });
  });

  it('does not follow redirects: a 3xx is the answer', async () => {
    const policy = { allowHttpHosts: ['127.0.0.1'], allowPrivateHosts: ['127.0.0.1'] };
    const r = await postWebhook(new URL(`http://127.0.0.1:${port}/h`), message, { timeoutMs: 2000, policy });
    assert.deepEqual(r, { answered: true, status: 302, retryAfter: undefined });
    assert.equal(inbox.received.length, 1);
    const ok = await postWebhook(new URL(`http://127.0.0.1:${port}/h`), message, { timeoutMs: 2000, policy });
    assert.deepEqual(ok, { answered: true, status: 204, retryAfter: undefined });
    assert.equal(inbox.received[1]?.headers['webhook-id'], 'msg_1');
    assert.match(String(inbox.received[1]?.headers['user-agent']), /^reviews-partner-api\//);
  });

  it('reports a refused connection by its code', async () => {
    const policy = { allowHttpHosts: ['127.0.0.1'], allowPrivateHosts: ['127.0.0.1'] };
    const r = await postWebhook(new URL('http://127.0.0.1:1/h'), message, { timeoutMs: 2000, policy });
    assert.deepEqual(r, { answered: false, error: 'ECONNREFUSED' });
  });
});
