import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PlanOptions } from '../../src/domain/plan-items.js';
import type { TenancyFile } from '../../src/domain/tenancy-file.js';
import { planChangesSomething, planTenancy } from '../../src/domain/tenancy-plan.js';
import type { TenancyState } from '../../src/domain/tenancy-state.js';

const NOW = Date.UTC(2026, 10, 29);
const options = (o: Partial<PlanOptions> = {}): PlanOptions => ({
  prune: false,
  adopt: false,
  maxDeletes: 10,
  now: NOW,
  defaults: { ratePerMinute: 60, quotaPerDay: 1000 },
  refuseUrl: () => null,
  ...o,
});
const file = (applications: TenancyFile['applications'] = []): TenancyFile => ({
  apiVersion: 'rpa/v1',
  environment: 'production',
  stack: 'partners',
  clients: [{ name: 'Acme' }],
  applications,
});
const empty: TenancyState = {
  environment: 'production',
  revision: 3,
  clients: [],
  applications: [],
  passkeys: [],
  webhooks: [],
};
const app = (o: Partial<TenancyState['applications'][number]> = {}) => ({
  id: 'a1',
  clientId: 'rpa_ci_x',
  name: 'web',
  managedBy: 'partners',
  rotateLabel: null,
  activeSecrets: 1,
  clientNames: ['Acme'],
  ...o,
});
const ownState = (o: Partial<TenancyState> = {}): TenancyState => ({
  ...empty,
  clients: [{ id: 'c1', name: 'Acme', managedBy: 'partners' }],
  applications: [app()],
  passkeys: [
    {
      id: 'p1',
      applicationId: 'a1',
      name: 'resp',
      api: 'response',
      ratePerMinute: 60,
      quotaPerDay: 1000,
      expiresAt: null,
      managedBy: 'partners',
    },
  ],
  ...o,
});

describe('planTenancy', () => {
  it('creates everything of a file in an empty environment, in dependency order', () => {
    const plan = planTenancy(
      file([
        {
          name: 'web',
          clientNames: ['Acme'],
          passkeys: [{ name: 'resp', api: 'response' }],
          webhooks: [{ url: 'https://h.example/x' }],
        },
      ]),
      empty,
      options(),
    );
    assert.deepEqual(
      plan.creations.map((c) => `${c.kind} ${c.key}`),
      ['client Acme', 'application web', 'passkey web/resp', 'webhook web https://h.example/x'],
    );
    assert.equal(plan.revision, 3);
    assert.ok(planChangesSomething(plan));
  });

  it('finds nothing to do when the environment is as the file says', () => {
    const plan = planTenancy(
      file([{ name: 'web', clientNames: ['Acme'], passkeys: [{ name: 'resp', api: 'response' }] }]),
      ownState(),
      options(),
    );
    assert.equal(planChangesSomething(plan), false, JSON.stringify(plan));
    assert.deepEqual(plan.problems, []);
  });

  it('lists changed limits, expiry and grants as changes', () => {
    const plan = planTenancy(
      file([
        {
          name: 'web',
          clientNames: [],
          passkeys: [
            { name: 'resp', api: 'response', rateLimitPerMinute: 5, expiresAt: '2027-01-01T00:00:00Z' },
          ],
        },
      ]),
      ownState(),
      options(),
    );
    assert.deepEqual(plan.changes, [
      { kind: 'application', key: 'web', id: 'a1', fields: { clientNames: { from: ['Acme'], to: [] } } },
      {
        kind: 'passkey',
        key: 'web/resp',
        id: 'p1',
        fields: {
          rateLimitPerMinute: { from: 60, to: 5 },
          expiresAt: { from: null, to: '2027-01-01T00:00:00.000Z' },
        },
      },
    ]);
  });

  it('revokes only with prune, only its own stack, and refuses past max-deletes', () => {
    const state = ownState({
      applications: [
        app(),
        app({ id: 'a2', name: 'old' }),
        app({ id: 'a3', name: 'theirs', managedBy: 'other' }),
        app({ id: 'a4', name: 'loose', managedBy: null }),
      ],
    });
    const f = file([{ name: 'web', clientNames: ['Acme'] }]);
    const kept = planTenancy(f, state, options());
    assert.deepEqual(kept.revocations, []);
    assert.match(kept.notes.join('\n'), /--prune revokes them/);
    const pruned = planTenancy(f, state, options({ prune: true }));
    assert.deepEqual(
      pruned.revocations.map((r) => `${r.kind} ${r.key}`),
      ['application old', 'passkey web/resp'],
    );
    assert.deepEqual(pruned.problems, []);
    const refused = planTenancy(f, state, options({ prune: true, maxDeletes: 1 }));
    assert.match(refused.problems[0]?.message ?? '', /more than --max-deletes 1/);
  });

  it("counts an application's passkeys and endpoints among a prune's revocations, listed before it", () => {
    const passkey = ownState().passkeys[0] as TenancyState['passkeys'][number];
    const state = ownState({
      applications: [app(), app({ id: 'a2', name: 'old' })],
      passkeys: [
        passkey,
        { ...passkey, id: 'p2', applicationId: 'a2', name: 'named' },
        { ...passkey, id: 'p3', applicationId: 'a2', name: null, managedBy: null },
      ],
      webhooks: [
        {
          id: 'w1',
          applicationId: 'a2',
          url: 'https://h.example/x',
          events: [],
          managedBy: null,
          rotateLabel: null,
        },
      ],
    });
    const f = file([{ name: 'web', clientNames: ['Acme'], passkeys: [{ name: 'resp', api: 'response' }] }]);
    const pruned = planTenancy(f, state, options({ prune: true }));
    assert.deepEqual(
      pruned.revocations.map((r) => `${r.kind} ${r.key}`),
      ['passkey old/named', 'passkey old/p3', 'webhook old https://h.example/x', 'application old'],
    );
    const refused = planTenancy(f, state, options({ prune: true, maxDeletes: 3 }));
    assert.match(refused.problems[0]?.message ?? '', /revokes 4 objects, more than --max-deletes 3/);
  });

  it('is a conflict to name an object no stack manages unless adopted, and always one of another stack', () => {
    const state = ownState({
      clients: [{ id: 'c1', name: 'Acme', managedBy: null }],
      applications: [app({ managedBy: 'other' })],
      passkeys: [],
    });
    const plan = planTenancy(file([{ name: 'web', clientNames: ['Acme'] }]), state, options());
    assert.deepEqual(
      plan.problems.map((p) => `${p.path}: ${p.message}`),
      [
        'clients[0]: client Acme exists and no stack manages it; --adopt claims it for this stack',
        'applications[0]: application web exists, managed by stack other',
      ],
    );
    const adopted = planTenancy(file([]), state, options({ adopt: true }));
    assert.deepEqual(adopted.adoptions, [{ kind: 'client', key: 'Acme', id: 'c1' }]);
  });

  it('rotates on a changed label, not on a first one, and not when adopting', () => {
    const labelled = file([
      { name: 'web', clientNames: ['Acme'], rotate: 'v2', passkeys: [{ name: 'resp', api: 'response' }] },
    ]);
    const plan = planTenancy(labelled, ownState({ applications: [app({ rotateLabel: 'v1' })] }), options());
    assert.deepEqual(plan.changes, [
      {
        kind: 'application',
        key: 'web',
        id: 'a1',
        fields: { rotate: { from: 'v1', to: 'v2' } },
        rotate: true,
      },
    ]);
    // The secret in use is the one the label now names: recording it rotates nothing.
    const first = planTenancy(labelled, ownState(), options());
    assert.deepEqual(first.changes, [
      { kind: 'application', key: 'web', id: 'a1', fields: { rotate: { from: null, to: 'v2' } } },
    ]);
    const full = planTenancy(
      file([
        { name: 'web', clientNames: ['Acme'], rotate: 'v2', passkeys: [{ name: 'resp', api: 'response' }] },
      ]),
      ownState({ applications: [app({ activeSecrets: 2, rotateLabel: 'v1' })] }),
      options(),
    );
    assert.match(full.problems[0]?.message ?? '', /has 2 active secrets/);
  });

  it('refuses an expiry it cannot read, rather than failing or meaning never', () => {
    const spec = { name: 'resp', api: 'response' as const, expiresAt: '2027-12-31T23:59:60Z' };
    for (const state of [ownState(), empty]) {
      const plan = planTenancy(
        file([{ name: 'web', clientNames: ['Acme'], passkeys: [spec] }]),
        state,
        options(),
      );
      assert.deepEqual(
        plan.problems.map((p) => `${p.path}: ${p.message}`),
        ['applications[0].passkeys[0].expiresAt: not a time that can be read: 2027-12-31T23:59:60Z'],
      );
    }
  });

  it("grants clients the environment holds outside the file, another stack's too, and refuses unknown ones", () => {
    const state = ownState({
      clients: [
        { id: 'c1', name: 'Acme', managedBy: 'partners' },
        { id: 'c2', name: 'Shared', managedBy: 'other' },
      ],
    });
    const spec = {
      name: 'web',
      clientNames: ['Acme', 'Shared'],
      passkeys: [{ name: 'resp', api: 'response' as const }],
    };
    const plan = planTenancy(file([spec]), state, options());
    assert.deepEqual(plan.problems, []);
    assert.deepEqual(plan.changes[0]?.fields, { clientNames: { from: ['Acme'], to: ['Acme', 'Shared'] } });
    const unknown = planTenancy(file([{ ...spec, clientNames: ['Nobody'] }]), state, options());
    assert.deepEqual(
      unknown.problems.map((p) => `${p.path}: ${p.message}`),
      ['applications[0].clientNames[0]: unknown client Nobody: list it under clients, or create it first'],
    );
  });

  it('refuses a changed API and a past expiry of a new passkey', () => {
    const plan = planTenancy(
      file([
        {
          name: 'web',
          clientNames: ['Acme'],
          passkeys: [
            { name: 'resp', api: 'privacy' },
            { name: 'n', api: 'response', expiresAt: '2020-01-01T00:00:00Z' },
          ],
        },
      ]),
      ownState(),
      options(),
    );
    assert.deepEqual(
      plan.problems.map((p) => p.path),
      ['applications[0].passkeys[0].api', 'applications[0].passkeys[1].expiresAt'],
    );
  });
});
