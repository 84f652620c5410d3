import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { substituteEnvReferences } from '../../src/domain/env-references.js';
import { envMask, maskProblem, maskText } from '../../src/domain/mask-plan.js';

describe('envMask', () => {
  const doc = {
    applications: [
      { name: `\${env:RPA_NAME}`, webhooks: [{ url: `https://\${env:RPA_HOST}/x` }] },
      { name: 'a' },
    ],
  };
  const substituted = substituteEnvReferences(doc, { RPA_NAME: 'a', RPA_HOST: '10.0.0.1' });
  const mask = envMask(substituted.value, substituted.references);

  it('masks a problem by the values at or under its path only', () => {
    const near = maskProblem(
      { path: 'applications[0].webhooks[0].url', message: '10.0.0.1 is private' },
      mask,
    );
    assert.equal(near.message, '*** is private');
    const far = { path: 'applications[1].name', message: 'application a: a name' };
    assert.deepEqual(maskProblem(far, mask), far, 'a short value elsewhere is left alone');
  });

  it('masks free text by every value, the host of a URL included', () => {
    assert.equal(maskText('cannot resolve 10.0.0.1', mask), 'cannot resolve ***');
  });
});
