import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { seal, unseal } from '../../src/domain/seal.js';

describe('sealed text', () => {
  const key = randomBytes(32);

  it('opens with its key, and differs each time it is sealed', () => {
    const text = '[1790000000123,"9df02479-0182-4a34-bbec-ecf947c3d3df","emailAddress","hash"]';
    const sealed = seal(key, text);
    assert.equal(unseal(key, sealed), text);
    assert.ok(!sealed.toString('latin1').includes('emailAddress'));
    assert.notDeepEqual(seal(key, text), sealed);
  });

  it('opens with no other key, altered in any byte, or cut short', () => {
    const sealed = seal(key, 'a position');
    assert.equal(unseal(randomBytes(32), sealed), null);
    for (let i = 0; i < sealed.length; i++) {
      const altered = Buffer.from(sealed);
      altered[i] = (altered[i] as number) ^ 0x80;
      assert.equal(unseal(key, altered), null, `byte ${i}`);
    }
    for (const length of [0, 11, 27, 28, sealed.length - 1]) {
      assert.equal(unseal(key, sealed.subarray(0, length)), null, `${length} bytes`);
    }
  });
});
