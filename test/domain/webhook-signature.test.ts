import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, signWebhook } from '../../src/domain/webhook-signature.js';

describe('webhook signatures', () => {
  it('are what the Standard Webhooks library computes, one entry per secret', () => {
    const [a, b] = [newWebhookSecret(), newWebhookSecret()];
    assert.match(a, /^whsec_[A-Za-z0-9+/]{43}=$/);
    const message = { id: 'msg_1', timestampSeconds: Math.floor(Date.now() / 1000), body: '{"type":"x"}' };
    const header = signWebhook([a, b], message);
    const at = new Date(message.timestampSeconds * 1000);
    assert.equal(
      header,
      `${new Webhook(a).sign('msg_1', at, message.body)} ${new Webhook(b).sign('msg_1', at, message.body)}`,
    );
    const headers = {
      'webhook-id': message.id,
      'webhook-timestamp': String(message.timestampSeconds),
      'webhook-signature': header,
    };
    assert.deepEqual(new Webhook(b).verify(message.body, headers), { type: 'x' });
    assert.throws(() => new Webhook(newWebhookSecret()).verify(message.body, headers));
    assert.throws(() => new Webhook(a).verify('{"type":"y"}', headers));
  });
});
