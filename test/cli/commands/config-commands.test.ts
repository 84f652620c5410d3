import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildAdminServer } from '../../../src/http/admin/build-admin-server.js';
import { createAdminToken } from '../../../src/services/admin/create-admin-token.js';
import { rpaAgainst } from '../../helpers/rpa-cli.js';
import {
  createTestRuntime,
  dropSchema,
  TEST_DATABASE_URL,
  TEST_DIALECT,
  type TestRuntime,
  uniqueSchema,
} from '../../helpers/test-runtime.js';

const dir = mkdtempSync(join(tmpdir(), 'rpa-config-cli-'));
const schema = TEST_DIALECT === 'postgres' ? uniqueSchema() : undefined;
const databaseUrl = TEST_DIALECT === 'postgres' ? TEST_DATABASE_URL : `sqlite:${join(dir, 'cli.db')}`;
const env = { RPA_HOOK_PATH: 'hooks-a1b2c3', RPA_QUOTA: '5000' };
const rpa = rpaAgainst({ databaseUrl, schema }, env);

const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const PARTNERS = `apiVersion: rpa/v1
environment: production
stack: partners
clients:
  - name: Acme-EN_GB
applications:
  - name: acme-web
    clientNames: [Acme-EN_GB]
    passkeys:
      - name: web-response
        api: response
        rateLimitPerMinute: 100
    webhooks:
      - url: https://93.184.215.14/\${env:RPA_HOOK_PATH}
        events: [privacy.forget_request.completed]
`;

describe(`rpa config on ${TEST_DIALECT}`, () => {
  let server: TestRuntime;
  let admin: FastifyInstance;
  let remote: ReturnType<typeof rpaAgainst>;

  before(async () => {
    server = await createTestRuntime({}, { databaseUrl, ...(schema ? { schema, keepSchema: true } : {}) });
    admin = await buildAdminServer(server.deps, { throttle: server.http.authThrottle });
    const adminUrl = await admin.listen({ port: 0, host: '127.0.0.1' });
    const token = await createAdminToken(server.deps, {
      name: 'ci',
      scopes: ['tenancy:read', 'tenancy:write'],
    });
    remote = rpaAgainst(
      { databaseUrl, schema },
      {
        ...env,
        RPA_ADMIN_URL: adminUrl,
        RPA_ADMIN_TOKEN: token.value,
        DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      },
    );
  });
  after(async () => {
    await admin.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
    if (schema) await dropSchema(TEST_DATABASE_URL, schema);
  });

  it('validates offline, naming the path of every problem', async () => {
    const bad = file(
      'bad.yaml',
      `apiVersion: rpa/v1
environment: production
stack: partners
clients: [{ name: Acme }, { name: Acme }]
applications:
  - name: web
    clientNames: [Nobody]
    passkeys:
      - { name: p, api: response, rateLimit: 5 }
    webhooks:
      - url: https://x.example/\${env:HOME}
      - url: https://x.example/\${env:RPA_UNSET}
`,
    );
    const r = await rpa('config', 'validate', bad);
    assert.equal(r.code, 1);
    assert.deepEqual(r.stderr.trim().split('\n'), [
      `rpa: ${bad}: applications[0].webhooks[0].url: \${env:HOME}: only variables named RPA_… may be referred to`,
      `rpa: ${bad}: applications[0].webhooks[1].url: \${env:RPA_UNSET}: the variable is not set`,
      `rpa: ${bad}: applications[0].passkeys[0].rateLimit: unknown field`,
    ]);
    const semantic = file(
      'dup.yaml',
      'apiVersion: rpa/v1\nenvironment: production\nstack: s\nclients: [{ name: A }, { name: A }]\napplications: [{ name: w, clientNames: [B] }]\n',
    );
    const s = await rpa('config', 'validate', semantic);
    assert.equal(s.code, 1);
    assert.match(s.stderr, /clients\[1\]\.name: duplicate client A/);
    assert.ok(!s.stderr.includes('unknown client'), 'a client of the environment is for the plan to find');
    // A whole value from the environment is text: it takes the type the field wants.
    const typed = file(
      'typed.yaml',
      'apiVersion: rpa/v1\nenvironment: production\nstack: s\nclients: [{ name: A }]\napplications:\n' +
        `  - { name: w, clientNames: [A], passkeys: [{ name: p, api: response, quotaPerDay: "\${env:RPA_QUOTA}" }] }\n`,
    );
    const t = await rpa('config', 'validate', typed);
    assert.equal(t.code, 0, t.stderr);
    const good = await rpa('config', 'validate', file('partners.yaml', PARTNERS));
    assert.equal(good.code, 0, good.stderr);
    const printed = await rpa('config', 'schema');
    assert.equal(JSON.parse(printed.stdout).$id, 'ConfigFile');
  });

  it('diffs 2 before, refuses to print secrets into a pipe, applies with --secrets-out, then diffs 0', async () => {
    const path = join(dir, 'partners.yaml');
    const diff = await rpa('config', 'diff', path);
    assert.equal(diff.code, 2, diff.stderr);
    assert.match(diff.stdout, /\+ webhook acme-web https:\/\/93\.184\.215\.14\/\*\*\*/);
    assert.ok(!diff.stdout.includes(env.RPA_HOOK_PATH), 'a value from the environment is masked');
    assert.deepEqual(await remote('config', 'diff', path), diff, 'the same through the admin API');
    const json = await rpa('config', 'diff', path, '--json');
    assert.equal(JSON.parse(json.stdout).creations.length, 4);

    const piped = await rpa('config', 'apply', path);
    assert.equal(piped.code, 1);
    assert.match(piped.stderr, /creates 3 secret\(s\) and stdout is not a terminal: give --secrets-out/);
    assert.equal((await rpa('config', 'diff', path)).code, 2, 'nothing was applied');

    const out = join(dir, 'secrets.json');
    const applied = await remote('config', 'apply', path, '--secrets-out', out);
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(applied.stdout, /Applied \(apply [0-9a-f-]{36}\)\.\nSecrets written to/);
    assert.equal(statSync(out).mode & 0o777, 0o600);
    const secrets = JSON.parse(readFileSync(out, 'utf8'));
    assert.deepEqual(Object.keys(secrets), ['applications', 'passkeys', 'webhooks']);
    assert.match(secrets.passkeys['acme-web/web-response'], /^rpa_pk_/);
    assert.ok(!applied.stdout.includes(secrets.passkeys['acme-web/web-response']));

    for (const run of [rpa, remote]) {
      const again = await run('config', 'diff', path);
      assert.equal(again.code, 0, again.stdout);
      const reapplied = await run('config', 'apply', path, '--secrets-out', out);
      assert.equal(reapplied.code, 0, reapplied.stderr);
      assert.match(reapplied.stdout, /nothing to change/);
    }
    const more = file(
      'more.yaml',
      PARTNERS.replace(
        '        rateLimitPerMinute: 100\n',
        '        rateLimitPerMinute: 100\n      - { name: extra, api: privacy }\n',
      ),
    );
    const exists = await rpa('config', 'apply', more, '--secrets-out', out);
    assert.equal(exists.code, 1);
    assert.match(exists.stderr, /the file exists; secrets go only to a new file; nothing was applied/);
  });

  it('dumps a file that validates and diffs clean, the same either way, with no secret', async () => {
    const local = await rpa('config', 'dump', '--stack', 'partners');
    assert.equal(local.code, 0, local.stderr);
    assert.deepEqual(await remote('config', 'dump', '--stack', 'partners'), local);
    assert.ok(!/rpa_(pk|cs)_|whsec_/.test(local.stdout));
    const dumped = file('dumped.yaml', local.stdout);
    assert.equal((await rpa('config', 'validate', dumped)).code, 0);
    assert.equal((await rpa('config', 'diff', dumped)).code, 0);
  });

  it('exits 1 on a conflict, the same either way', async () => {
    const theirs = file('theirs.yaml', PARTNERS.replace('stack: partners', 'stack: other'));
    const local = await rpa('config', 'diff', theirs);
    assert.equal(local.code, 1);
    assert.match(local.stdout, /clients\[0\]: client Acme-EN_GB exists, managed by stack partners/);
    assert.deepEqual(await remote('config', 'diff', theirs), local);
    const refused = await remote('config', 'apply', theirs);
    assert.equal(refused.code, 1);
    assert.ok(existsSync(join(dir, 'secrets.json')));
  });

  it('adopts what was made by hand, a passkey once it is given a name', async () => {
    const json = async (...argv: string[]) => {
      const r = await rpa(...argv, '--json');
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout);
    };
    await json('clients', 'add', 'Hand-EN');
    const app = await json('apps', 'create', '--name', 'hand-app', '--clients', 'Hand-EN');
    const made = await json('passkeys', 'create', '--app', app.clientId, '--api', 'response');
    const hand = file(
      'hand.yaml',
      'apiVersion: rpa/v1\nenvironment: production\nstack: hand\nclients: [{ name: Hand-EN }]\n' +
        'applications:\n  - name: hand-app\n    clientNames: [Hand-EN]\n' +
        '    passkeys: [{ name: made-by-hand, api: response }]\n',
    );
    // Unnamed, the passkey is not the file's: the file's would be a second one.
    const before = await rpa('config', 'diff', hand, '--adopt');
    assert.match(before.stdout, /\+ passkey hand-app\/made-by-hand/);
    const named = await json('passkeys', 'update', made.id, '--name', 'made-by-hand');
    assert.equal(named.name, 'made-by-hand');
    const after = await rpa('config', 'diff', hand, '--adopt');
    assert.equal(after.code, 2, after.stdout);
    assert.doesNotMatch(after.stdout, /\+ passkey/);
    assert.match(after.stdout, /passkey hand-app\/made-by-hand \(adopted\)/);
    const applied = await rpa('config', 'apply', hand, '--adopt');
    assert.equal(applied.code, 0, applied.stderr);
    assert.equal((await rpa('config', 'diff', hand)).code, 0);
  });

  it('on an apply whose answer is lost, says it may have been applied, never that nothing was', async () => {
    const plan = {
      environment: 'production',
      stack: 'partners',
      revision: 1,
      creations: [{ kind: 'application', key: 'lost-web' }],
      changes: [],
      adoptions: [],
      revocations: [],
      notes: [],
      problems: [],
    };
    // An admin API that plans, then drops the connection of the apply: the server may have committed.
    const lossy = createServer((request, response) => {
      if (request.url?.endsWith('/config/apply')) request.socket.destroy();
      else response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(plan));
    });
    await new Promise<void>((resolve) => lossy.listen(0, '127.0.0.1', resolve));
    const { port } = lossy.address() as AddressInfo;
    try {
      const run = rpaAgainst(
        { databaseUrl, schema },
        { ...env, RPA_ADMIN_URL: `http://127.0.0.1:${port}`, RPA_ADMIN_TOKEN: 'rpa_adm_x' },
      );
      const out = join(dir, 'lost.json');
      const r = await run('config', 'apply', file('lost.yaml', PARTNERS), '--secrets-out', out);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /may have been applied/);
      assert.match(r.stderr, /rpa config diff/);
      assert.ok(!/nothing (was|is) applied|nothing changed/.test(r.stderr), r.stderr);
    } finally {
      lossy.close();
    }
  });

  it('masks values from the environment in the problems it reports too', async () => {
    const inside = file(
      'inside.yaml',
      PARTNERS.replace('stack: partners', 'stack: inside')
        .replace('Acme-EN_GB', 'Inside-EN_GB')
        .replace('[Acme-EN_GB]', '[Inside-EN_GB]')
        .replace('name: acme-web', 'name: inside-web')
        .replace(`https://93.184.215.14/\${env:RPA_HOOK_PATH}`, `https://\${env:RPA_INTERNAL_HOST}/x`),
    );
    const run = rpaAgainst({ databaseUrl, schema }, { RPA_INTERNAL_HOST: '10.20.30.40' });
    for (const args of [['diff'], ['apply', '--secrets-out', join(dir, 'never.json')]]) {
      const r = await run('config', ...args, inside);
      assert.equal(r.code, 1, r.stdout);
      assert.match(r.stdout, /applications\[0\]\.webhooks\[0\]\.url: /);
      assert.ok(!`${r.stdout}${r.stderr}`.includes('10.20.30.40'), r.stdout);
    }
    assert.ok(!existsSync(join(dir, 'never.json')));
  });
});
