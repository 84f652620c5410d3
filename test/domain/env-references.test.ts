import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { substituteEnvReferences } from '../../src/domain/env-references.js';

describe('substituteEnvReferences', () => {
  it('replaces RPA_ variables in every string scalar and says where, as outputs show it', () => {
    const r = substituteEnvReferences(
      {
        a: [{ url: `https://\${env:RPA_HOST}/x?t=\${env:RPA_TOKEN}` }],
        n: 5,
        s: 'plain',
        q: `\${env:RPA_Q}`,
      },
      { RPA_HOST: 'hooks.example', RPA_TOKEN: 's3cret', RPA_Q: '7' },
    );
    assert.deepEqual(r.value, { a: [{ url: 'https://hooks.example/x?t=s3cret' }], n: 5, s: 'plain', q: '7' });
    assert.deepEqual(Object.fromEntries(r.references), {
      'a[0].url': { shown: 'https://***/x?t=***', values: ['hooks.example', 's3cret'], whole: false },
      q: { shown: '***', values: ['7'], whole: true },
    });
    assert.deepEqual(r.problems, []);
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
    assert.deepEqual(
      [...r.references.values()].map((v) => v.values),
      [[], []],
    );
  });
});
