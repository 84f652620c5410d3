import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { maskValues, substituteEnvReferences } from '../../src/domain/env-references.js';

describe('substituteEnvReferences', () => {
  it('replaces RPA_ variables in every string scalar and returns their values to mask', () => {
    const r = substituteEnvReferences(
      { a: [{ url: `https://\${env:RPA_HOST}/x?t=\${env:RPA_TOKEN}` }], n: 5, s: 'plain' },
      { RPA_HOST: 'hooks.example', RPA_TOKEN: 's3cret' },
    );
    assert.deepEqual(r.value, { a: [{ url: 'https://hooks.example/x?t=s3cret' }], n: 5, s: 'plain' });
    assert.deepEqual([...r.masked].sort(), ['hooks.example', 's3cret']);
    assert.deepEqual(r.problems, []);
    assert.equal(maskValues('to https://hooks.example/x?t=s3cret', r.masked), 'to https://***/x?t=***');
  });

  it('refuses a name not starting RPA_ and an unset variable, at their paths', () => {
    const r = substituteEnvReferences(
      { apps: [{ name: `\${env:HOME}` }, { name: `\${env:RPA_NOPE}` }] },
      { HOME: '/root' },
    );
    assert.deepEqual(r.problems, [
      { path: 'apps[0].name', message: `\${env:HOME}: only variables named RPA_… may be referred to` },
      { path: 'apps[1].name', message: `\${env:RPA_NOPE}: the variable is not set` },
    ]);
    assert.deepEqual(r.masked, []);
  });
});
