import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderPlan } from '../../src/cli/render-plan.js';
import { substituteEnvReferences } from '../../src/domain/env-references.js';
import { envMask } from '../../src/domain/mask-plan.js';
import type { PlanOptions } from '../../src/domain/plan-items.js';
import type { TenancyFile } from '../../src/domain/tenancy-file.js';
import { planTenancy } from '../../src/domain/tenancy-plan.js';
import type { TenancyState } from '../../src/domain/tenancy-state.js';
import { convertConfigFile } from '../../src/http/admin/config-file-schema.js';

const options: PlanOptions = {
  prune: false,
  adopt: false,
  maxDeletes: 10,
  now: Date.UTC(2026, 10, 29),
  defaults: { ratePerMinute: 60, quotaPerDay: 1000 },
  refuseUrl: () => null,
};
const empty: TenancyState = {
  environment: 'production',
  revision: 1,
  clients: [],
  applications: [],
  passkeys: [],
  webhooks: [],
};

/** The file as `rpa config` reads it, planned against `state`, then rendered both ways. */
function rendered(doc: unknown, env: Record<string, string>, state: TenancyState = empty) {
  const substituted = substituteEnvReferences(doc, env);
  assert.deepEqual(substituted.problems, []);
  const whole = [...substituted.references].filter(([, r]) => r.whole).map(([path]) => path);
  const file = convertConfigFile(substituted.value, new Set(whole)) as TenancyFile;
  const plan = planTenancy(file, state, options);
  const mask = envMask(file, substituted.references);
  return {
    plan,
    text: renderPlan(plan, { json: false, file, mask }),
    json: renderPlan(plan, { json: true, file, mask }),
  };
}

const doc = (applications: unknown[], clients: unknown[] = [{ name: 'Acme' }]) => ({
  apiVersion: 'rpa/v1',
  environment: 'production',
  stack: 's',
  clients,
  applications,
});

describe('renderPlan', () => {
  it('masks a value from the environment after the URL it is in was normalised', () => {
    const r = rendered(
      doc([
        {
          name: 'web',
          clientNames: ['Acme'],
          webhooks: [
            { url: `\${env:RPA_HOOK}` },
            { url: `https://hooks.example:443/b?token=\${env:RPA_TOK}` },
          ],
        },
      ]),
      { RPA_HOOK: 'https://Hooks.Example.COM/cb?k=s3cr3t', RPA_TOK: 'a b"c' },
    );
    for (const out of [r.text, r.json]) {
      for (const leak of ['s3cr3t', 'hooks.example.com', 'a%20b%22c', 'a b"c'])
        assert.ok(!out.toLowerCase().includes(leak.toLowerCase()), `${leak} in ${out}`);
    }
    assert.match(r.text, /\+ webhook web \*\*\*\n/);
    assert.match(r.text, /\+ webhook web https:\/\/hooks\.example:443\/b\?token=\*\*\*\n/);
  });

  it('masks a name from the environment in --json, whatever JSON escapes in it', () => {
    const name = 'Acme "EU" \\ Ltd';
    const r = rendered(
      doc([{ name: 'web', clientNames: [`\${env:RPA_CLIENT}`] }], [{ name: `\${env:RPA_CLIENT}` }]),
      {
        RPA_CLIENT: name,
      },
    );
    assert.ok(!r.json.includes(JSON.stringify(name).slice(1, -1)), r.json);
    assert.ok(!r.text.includes(name), r.text);
    assert.deepEqual(
      JSON.parse(r.json).creations.map((c: { key: string }) => c.key),
      ['***', 'web'],
    );
  });

  it('says "nothing to change" only when there is no problem either', () => {
    const r = rendered(doc([{ name: 'web', clientNames: ['Nobody'] }], []), {});
    assert.ok(!r.text.includes('nothing to change'), r.text);
    assert.match(r.text, /Problems \(nothing can be applied\):/);
  });

  it('masks a short value only where it stands, not every digit alike', () => {
    const state: TenancyState = {
      ...empty,
      clients: [{ id: 'c1', name: 'Acme', managedBy: 's' }],
      applications: [
        {
          id: 'a1',
          clientId: 'rpa_ci_1',
          name: 'web1',
          managedBy: 's',
          rotateLabel: null,
          activeSecrets: 1,
          clientNames: ['Acme'],
        },
      ],
      passkeys: [
        {
          id: 'p1',
          applicationId: 'a1',
          name: 'p1',
          api: 'response',
          ratePerMinute: 100,
          quotaPerDay: 1000,
          expiresAt: null,
          managedBy: 's',
        },
      ],
    };
    const r = rendered(
      doc([
        {
          name: 'web1',
          clientNames: ['Acme'],
          passkeys: [{ name: 'p1', api: 'response', rateLimitPerMinute: `\${env:RPA_RATE}` }],
        },
      ]),
      { RPA_RATE: '1' },
      state,
    );
    assert.match(r.text, /~ passkey web1\/p1: rateLimitPerMinute 100 -> \*\*\*\n/);
    assert.match(r.text, /0 to create, 1 to change, 0 to adopt, 0 to revoke\./);
    assert.equal(JSON.parse(r.json).changes[0].fields.rateLimitPerMinute.to, '***');
  });
});
