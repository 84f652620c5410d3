import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { TenancyFile } from '../../../src/domain/tenancy-file.js';
import { configFileProblems } from '../../../src/http/admin/config-file-schema.js';
import { createApplication } from '../../../src/services/tenancy/create-application.js';
import { createClient } from '../../../src/services/tenancy/create-client.js';
import { applyTenancyConfig } from '../../../src/services/tenancy-config/apply-tenancy-config.js';
import { dumpTenancyConfig } from '../../../src/services/tenancy-config/dump-tenancy-config.js';
import {
  planTenancyConfig,
  type TenancyConfigInput,
} from '../../../src/services/tenancy-config/plan-tenancy-config.js';
import { addWebhookEndpoint } from '../../../src/services/webhooks/add-webhook-endpoint.js';
import { auditTrail } from '../../helpers/audit-trail.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../../helpers/test-runtime.js';

const HOOK = 'https://93.184.215.14/hooks';

function partners(stack = 'partners', rotate?: { app?: string; hook?: string }): TenancyFile {
  return {
    apiVersion: 'rpa/v1',
    environment: 'production',
    stack,
    clients: [{ name: `${stack}-EN_GB` }, { name: `${stack}-DE_DE` }],
    applications: [
      {
        name: `${stack}-web`,
        clientNames: [`${stack}-EN_GB`],
        ...(rotate?.app ? { rotate: rotate.app } : {}),
        passkeys: [
          { name: 'web-response', api: 'response', rateLimitPerMinute: 100 },
          { name: 'web-privacy', api: 'privacy', expiresAt: '2030-01-01T00:00:00Z' },
        ],
        webhooks: [
          {
            url: HOOK,
            events: ['privacy.forget_request.completed'],
            ...(rotate?.hook ? { rotate: rotate.hook } : {}),
          },
        ],
      },
      { name: `${stack}-app`, clientNames: [`${stack}-EN_GB`, `${stack}-DE_DE`] },
    ],
  };
}

describe(`applyTenancyConfig on ${TEST_DIALECT}`, () => {
  let rt: TestRuntime;
  const input = (file: TenancyFile, o: Partial<TenancyConfigInput> = {}): TenancyConfigInput => ({
    environment: 'production',
    file,
    prune: false,
    adopt: false,
    maxDeletes: 10,
    ...o,
  });
  const apply = async (file: TenancyFile, o: Partial<TenancyConfigInput> = {}) => {
    const plan = await planTenancyConfig(rt.deps, input(file, o));
    return applyTenancyConfig(rt.deps, { ...input(file, o), revision: plan.revision });
  };
  const count = async (table: 'clients' | 'applications' | 'passkeys' | 'webhook_endpoints') =>
    Number(
      (
        await rt.deps.store.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const everything = async () => ({
    clients: await count('clients'),
    applications: await count('applications'),
    passkeys: await count('passkeys'),
    webhooks: await count('webhook_endpoints'),
  });
  const revealed: string[] = [];

  before(async () => {
    rt = await createTestRuntime();
  });
  after(() => rt.close());

  it('applies a file in dependency order, showing each new secret once in its place', async () => {
    const result = await apply(partners());
    assert.deepEqual(Object.keys(result.secrets.applications).sort(), ['partners-app', 'partners-web']);
    assert.match(result.secrets.applications['partners-web']?.clientSecret ?? '', /^rpa_cs_/);
    assert.deepEqual(Object.keys(result.secrets.passkeys).sort(), [
      'partners-web/web-privacy',
      'partners-web/web-response',
    ]);
    assert.deepEqual(Object.keys(result.secrets.webhooks), [`partners-web ${HOOK}`]);
    assert.deepEqual(await everything(), { clients: 2, applications: 2, passkeys: 2, webhooks: 1 });
    revealed.push(
      ...Object.values(result.secrets.applications).map((a) => a.clientSecret),
      ...Object.values(result.secrets.passkeys),
      ...Object.values(result.secrets.webhooks),
    );
    const trail = await rt.deps.store.db.selectFrom('audit_events').selectAll().execute();
    const applied = trail.filter((e) => JSON.parse(e.details).applyId === result.applyId);
    assert.equal(applied.length, 7);
    assert.ok(applied.every((e) => e.actor === rt.deps.actor));
  });

  it('changes nothing and shows no secret when the same file is applied again', async () => {
    const plan = await planTenancyConfig(rt.deps, input(partners()));
    assert.deepEqual([plan.creations, plan.changes, plan.adoptions, plan.revocations], [[], [], [], []]);
    const again = await apply(partners());
    assert.deepEqual(again.secrets, { applications: {}, passkeys: {}, webhooks: {} });
  });

  it('rotates an application secret and a webhook secret when their label changes', async () => {
    const first = await apply(partners('partners', { app: 'v1', hook: 'h1' }));
    assert.deepEqual(
      first.plan.changes.map((c) => c.rotate),
      [undefined, undefined],
      'a first label',
    );
    assert.deepEqual(first.secrets, { applications: {}, passkeys: {}, webhooks: {} });
    const r = await apply(partners('partners', { app: 'v2', hook: 'h2' }));
    assert.deepEqual(
      r.plan.changes.map((c) => [c.key, c.rotate]),
      [
        ['partners-web', true],
        [`partners-web ${HOOK}`, true],
      ],
    );
    assert.match(r.secrets.applications['partners-web']?.clientSecret ?? '', /^rpa_cs_/);
    assert.match(r.secrets.webhooks[`partners-web ${HOOK}`] ?? '', /^whsec_/);
    revealed.push(
      r.secrets.applications['partners-web']?.clientSecret ?? '',
      r.secrets.webhooks[`partners-web ${HOOK}`] ?? '',
    );
    const secrets = await rt.deps.store.db.selectFrom('webhook_secrets').select('expires_at').execute();
    assert.equal(
      secrets.filter((s) => s.expires_at !== null).length,
      1,
      'the old secret signs for its grace period',
    );
    const again = await apply(partners('partners', { app: 'v2', hook: 'h2' }));
    assert.deepEqual(again.plan.changes, []);
  });

  it('dumps a file that validates and plans unchanged, holding no secret', async () => {
    const dumped = await dumpTenancyConfig(rt.deps, { environment: 'production', stack: 'partners' });
    assert.deepEqual(configFileProblems(dumped), []);
    const plan = await planTenancyConfig(rt.deps, input(dumped));
    assert.deepEqual([plan.creations, plan.changes, plan.adoptions, plan.problems], [[], [], [], []]);
    const text = JSON.stringify([dumped, plan]);
    for (const secret of revealed) assert.ok(!text.includes(secret));
    const trail = JSON.stringify(await rt.deps.store.db.selectFrom('audit_events').selectAll().execute());
    for (const secret of revealed) assert.ok(!trail.includes(secret), 'a secret in the audit trail');
    for (const secret of revealed) assert.ok(!rt.logs.text().includes(secret), 'a secret in the logs');
  });

  it('refuses a plan whose revision another change has moved, applying nothing', async () => {
    const file = partners('late');
    const plan = await planTenancyConfig(rt.deps, input(file));
    await createClient(rt.deps, { environment: 'production', name: 'Someone-Else' });
    const before = await everything();
    await assert.rejects(applyTenancyConfig(rt.deps, { ...input(file), revision: plan.revision }), {
      code: 'TENANCY_REVISION_CHANGED',
      status: 409,
    });
    assert.deepEqual(await everything(), before);
  });

  it('leaves nothing when a statement fails half-way through', async () => {
    const file = partners('halfway');
    const boom = {
      ...file,
      applications: [
        {
          name: 'halfway-web',
          clientNames: ['halfway-EN_GB'],
          passkeys: [{ name: 'boom', api: 'response' as const }],
        },
      ],
    };
    if (TEST_DIALECT === 'sqlite')
      await sql`create trigger boom before insert on passkeys when new.name = 'boom' begin select raise(abort, 'injected'); end`.execute(
        rt.deps.store.db,
      );
    else {
      await sql`create function boom() returns trigger language plpgsql as $$ begin if new.name = 'boom' then raise exception 'injected'; end if; return new; end $$`.execute(
        rt.deps.store.db,
      );
      await sql`create trigger boom before insert on passkeys for each row execute function boom()`.execute(
        rt.deps.store.db,
      );
    }
    const before = await everything();
    try {
      await assert.rejects(apply(boom), /injected/);
    } finally {
      await sql`drop trigger boom${sql.raw(TEST_DIALECT === 'sqlite' ? '' : ' on passkeys')}`.execute(
        rt.deps.store.db,
      );
    }
    assert.deepEqual(
      await everything(),
      before,
      'the clients and the application written before it are gone too',
    );
    assert.equal((await apply(boom)).plan.creations.length, 4);
  });

  it('prunes only its own stack, within max-deletes', async () => {
    await apply(partners('other'));
    const shrunk = {
      ...partners(),
      applications: [{ ...(partners().applications?.[1] as object), name: 'partners-app' }],
    };
    const refused = await planTenancyConfig(rt.deps, input(shrunk, { prune: true, maxDeletes: 0 }));
    assert.match(refused.problems[0]?.message ?? '', /more than --max-deletes 0/);
    await assert.rejects(apply(shrunk, { prune: true, maxDeletes: 0 }), { code: 'TENANCY_PLAN_REFUSED' });
    const r = await apply(shrunk, { prune: true });
    const revoked = r.plan.revocations.map((i) => `${i.kind} ${i.key}`);
    assert.equal(revoked.at(-1), 'application partners-web', 'what it holds goes first');
    assert.deepEqual(revoked.sort(), [
      'application partners-web',
      'passkey partners-web/web-privacy',
      'passkey partners-web/web-response',
      `webhook partners-web ${HOOK}`,
    ]);
    const ids = r.plan.revocations.map((i) => i.id as string);
    const db = rt.deps.store.db;
    const active = await db
      .selectFrom('passkeys')
      .select('id')
      .where('id', 'in', ids)
      .where('status', '=', 'active')
      .execute();
    const endpoints = await db.selectFrom('webhook_endpoints').select('id').where('id', 'in', ids).execute();
    assert.deepEqual([active, endpoints], [[], []], 'its passkeys and endpoint are gone with it');
    const dumpedOther = await dumpTenancyConfig(rt.deps, { environment: 'production', stack: 'other' });
    assert.equal(dumpedOther.applications?.length, 2, "the other stack's objects are untouched");
  });

  it('records an apply in the audit trail in the order it applied it', async () => {
    const trailOf = async (applyId: string) =>
      (await auditTrail(rt.deps))
        .filter((e) => e.details.applyId === applyId)
        .map((e) => [e.action, e.details.name ?? null].join(' ').trim());
    // Labels from the start: a first label is recorded, a changed one rotates.
    const created = await apply(partners('ordered', { app: 'v1', hook: 'h1' }));
    assert.deepEqual(await trailOf(created.applyId), [
      'client.created ordered-EN_GB',
      'client.created ordered-DE_DE',
      'application.created ordered-web',
      'application.created ordered-app',
      'passkey.created web-response',
      'passkey.created web-privacy',
      'webhook_endpoint.created',
    ]);
    const file = partners('ordered', { app: 'v2', hook: 'h2' });
    const [web, ...rest] = file.applications ?? [];
    const renamed: TenancyFile = {
      ...file,
      applications: [
        {
          ...(web as NonNullable<typeof web>),
          passkeys: (web?.passkeys ?? []).map((p) =>
            p.name === 'web-response' ? { ...p, name: 'web-reply' } : p,
          ),
        },
        ...rest,
      ],
    };
    const changed = await apply(renamed, { prune: true });
    assert.deepEqual(
      await trailOf(changed.applyId),
      [
        'passkey.revoked',
        'passkey.created web-reply',
        'application.secret_rotated',
        'webhook_endpoint.secret_rotated',
      ],
      'the passkey a rename replaces is revoked before its successor is created',
    );
  });

  it("adopts a receiver's endpoint without writing its URL's path or query to the audit trail", async () => {
    const url = 'https://93.184.215.14/h?token=SEKRIT123';
    await createClient(rt.deps, { environment: 'production', name: 'Hooked' });
    const app = await createApplication(rt.deps, {
      environment: 'production',
      name: 'hooked-web',
      clientNames: ['Hooked'],
    });
    await addWebhookEndpoint(rt.deps, { applicationId: app.application.id, url });
    const file: TenancyFile = {
      apiVersion: 'rpa/v1',
      environment: 'production',
      stack: 'hooked',
      clients: [{ name: 'Hooked' }],
      applications: [{ name: 'hooked-web', clientNames: ['Hooked'], webhooks: [{ url }] }],
    };
    const r = await apply(file, { adopt: true });
    assert.equal(r.plan.adoptions.length, 3);
    const trail = await rt.deps.store.db.selectFrom('audit_events').selectAll().execute();
    const adopted = trail.filter((e) => JSON.parse(e.details).applyId === r.applyId);
    assert.equal(adopted.length, 3);
    assert.ok(!JSON.stringify(adopted).includes('SEKRIT123'), JSON.stringify(adopted));
    const endpoint = adopted.find((e) => e.action === 'webhook_endpoint.adopted');
    assert.equal(JSON.parse(endpoint?.details ?? '{}').origin, 'https://93.184.215.14');
  });

  it("grants another stack's client, and dumps it by name only, the dump diffing clean", async () => {
    const file: TenancyFile = {
      apiVersion: 'rpa/v1',
      environment: 'production',
      stack: 'sharing',
      applications: [{ name: 'sharing-web', clientNames: ['partners-EN_GB'] }],
    };
    const r = await apply(file);
    assert.deepEqual(
      r.plan.creations.map((c) => `${c.kind} ${c.key}`),
      ['application sharing-web'],
    );
    const dumped = await dumpTenancyConfig(rt.deps, { environment: 'production', stack: 'sharing' });
    assert.deepEqual(dumped.clients, [], "another stack's client is not this stack's to list");
    assert.deepEqual(dumped.applications?.[0]?.clientNames, ['partners-EN_GB']);
    const plan = await planTenancyConfig(rt.deps, input(dumped));
    assert.deepEqual([plan.creations, plan.changes, plan.adoptions, plan.problems], [[], [], [], []]);
  });

  it('plans no change for an application granted mixed-case clients, whatever the collation', async () => {
    const file: TenancyFile = {
      apiVersion: 'rpa/v1',
      environment: 'production',
      stack: 'cases',
      clients: [{ name: 'acme-fr' }, { name: 'Beta-DE' }],
      applications: [{ name: 'cases-web', clientNames: ['acme-fr', 'Beta-DE'] }],
    };
    // A database in a linguistic collation sorts 'acme-fr' before 'Beta-DE'; JavaScript does not.
    const collate = (c: string) =>
      sql`alter table clients alter column name type text collate ${sql.id(c)}`.execute(rt.deps.store.db);
    if (TEST_DIALECT === 'postgres') await collate('en-US-x-icu');
    try {
      await apply(file);
      const plan = await planTenancyConfig(rt.deps, input(file));
      assert.deepEqual([plan.creations, plan.changes, plan.adoptions], [[], [], []]);
      const dumped = await dumpTenancyConfig(rt.deps, { environment: 'production', stack: 'cases' });
      assert.deepEqual(dumped.applications?.[0]?.clientNames, ['Beta-DE', 'acme-fr']);
    } finally {
      if (TEST_DIALECT === 'postgres') await collate('default');
    }
  });

  it("adopts what no stack manages only when told, and never another stack's", async () => {
    const file: TenancyFile = {
      apiVersion: 'rpa/v1',
      environment: 'production',
      stack: 'partners',
      clients: [{ name: 'Someone-Else' }],
    };
    const refused = await planTenancyConfig(rt.deps, input(file));
    assert.match(refused.problems[0]?.message ?? '', /no stack manages it; --adopt/);
    const adopted = await apply(file, { adopt: true });
    assert.deepEqual(
      adopted.plan.adoptions.map((a) => a.key),
      ['Someone-Else'],
    );
    assert.equal((await planTenancyConfig(rt.deps, input(file))).adoptions.length, 0);
    const theirs = await planTenancyConfig(rt.deps, input({ ...file, stack: 'other' }, { adopt: true }));
    assert.match(
      theirs.problems.map((p) => p.message).join('\n'),
      /Someone-Else exists, managed by stack partners/,
    );
  });
});
