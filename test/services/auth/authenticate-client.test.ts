import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { after, before, describe, it, mock } from 'node:test';
import type {
  Kysely,
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { MAX_ACTIVE_SECRETS } from '../../../src/domain/application.js';
import type { Environment } from '../../../src/domain/environment.js';
import { authenticateClient } from '../../../src/services/auth/authenticate-client.js';
import type { ServiceDeps } from '../../../src/services/deps.js';
import { isPromise } from '../../../src/services/maybe-promise.js';
import { revokeApplication } from '../../../src/services/tenancy/revoke-application.js';
import { rotateApplicationSecret } from '../../../src/services/tenancy/rotate-application-secret.js';
import { type DemoCredentials, seedDemo } from '../../../src/services/tenancy/seed-demo.js';
import type { Database } from '../../../src/store/schema.js';
import { createTestRuntime, type TestRuntime } from '../../helpers/test-runtime.js';

/** Records the SQL of every query run through the database handle it is plugged into. */
class QueryLog implements KyselyPlugin {
  readonly statements: string[] = [];
  constructor(private readonly db: Kysely<Database>) {}
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.statements.push(this.db.getExecutor().compileQuery(args.node, args.queryId).sql);
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

interface Work {
  readonly outcome: string;
  readonly statements: readonly string[];
  /** Constant-time comparisons of digests, i.e. secrets compared. */
  readonly comparisons: number;
}

/** Runs one authentication and records the queries it sent and the digests it compared. */
async function workOf(
  runtime: TestRuntime,
  input: { environment: Environment; clientId: string; clientSecret: string },
): Promise<Work> {
  const log = new QueryLog(runtime.deps.store.db);
  const deps: ServiceDeps = {
    ...runtime.deps,
    store: { ...runtime.deps.store, db: runtime.deps.store.db.withPlugin(log) },
  };
  const compare = mock.method(crypto, 'timingSafeEqual');
  syncBuiltinESMExports();
  let outcome = 'authenticated';
  try {
    await authenticateClient(deps, input);
  } catch (err) {
    outcome = (err as { code?: string }).code ?? String(err);
  } finally {
    compare.mock.restore();
    syncBuiltinESMExports();
  }
  return { outcome, statements: log.statements, comparisons: compare.mock.callCount() };
}

describe('authenticateClient does the same work whichever way it fails (docs/design.md, Token service)', () => {
  let runtime: TestRuntime;
  let one: DemoCredentials;
  let two: DemoCredentials;
  let revoked: DemoCredentials;
  let staging: DemoCredentials;

  before(async () => {
    runtime = await createTestRuntime();
    one = await seedDemo(runtime.deps, { environment: 'production' });
    two = await seedDemo(runtime.deps, { environment: 'production' });
    await rotateApplicationSecret(runtime.deps, { applicationId: two.applicationId });
    revoked = await seedDemo(runtime.deps, { environment: 'production' });
    await revokeApplication(runtime.deps, { applicationId: revoked.applicationId });
    staging = await seedDemo(runtime.deps, { environment: 'staging' });
  });
  after(() => runtime.close());

  it('an unknown client id runs the same queries and compares as many secrets as a wrong secret', async () => {
    const wrong = `rpa_cs_${'x'.repeat(43)}`;
    const unknown = await workOf(runtime, {
      environment: 'production',
      clientId: `rpa_ci_${'u'.repeat(43)}`,
      clientSecret: wrong,
    });
    const cases: Record<string, Work> = {
      'a client id of the other environment': await workOf(runtime, {
        environment: 'production',
        clientId: staging.clientId,
        clientSecret: wrong,
      }),
      'a wrong secret, one active secret': await workOf(runtime, {
        environment: 'production',
        clientId: one.clientId,
        clientSecret: wrong,
      }),
      'a wrong secret, two active secrets': await workOf(runtime, {
        environment: 'production',
        clientId: two.clientId,
        clientSecret: wrong,
      }),
      'a wrong secret of a revoked application': await workOf(runtime, {
        environment: 'production',
        clientId: revoked.clientId,
        clientSecret: wrong,
      }),
    };
    assert.equal(unknown.outcome, 'INVALID_CLIENT');
    assert.equal(unknown.comparisons, MAX_ACTIVE_SECRETS);
    for (const [name, work] of Object.entries(cases)) {
      assert.deepEqual(work, unknown, name);
    }
  });

  it('the right secret costs the same queries and comparisons too', async () => {
    const unknown = await workOf(runtime, {
      environment: 'production',
      clientId: `rpa_ci_${'u'.repeat(43)}`,
      clientSecret: one.clientSecret,
    });
    const right = await workOf(runtime, {
      environment: 'production',
      clientId: one.clientId,
      clientSecret: one.clientSecret,
    });
    assert.equal(right.outcome, 'authenticated');
    assert.deepEqual(right.statements, unknown.statements);
    assert.equal(right.comparisons, unknown.comparisons);
  });
});

describe('authenticateClient answers at once when the credentials are cached', () => {
  let runtime: TestRuntime;
  let demo: DemoCredentials;
  before(async () => {
    runtime = await createTestRuntime({ TOKEN_CACHE_TTL_MS: '5000' });
    demo = await seedDemo(runtime.deps, { environment: 'production' });
  });
  after(() => runtime.close());

  it('a promise while they must be loaded, then the client; a wrong secret is then thrown at once', async () => {
    const input = {
      environment: 'production' as const,
      clientId: demo.clientId,
      clientSecret: demo.clientSecret,
    };
    const pending = authenticateClient(runtime.deps, input);
    assert.ok(isPromise(pending));
    const client = await pending;
    assert.equal(client.application.id, demo.applicationId);
    const held = authenticateClient(runtime.deps, input);
    assert.ok(!isPromise(held));
    assert.deepEqual(held, client);
    assert.throws(
      () => authenticateClient(runtime.deps, { ...input, clientSecret: `rpa_cs_${'x'.repeat(43)}` }),
      { code: 'INVALID_CLIENT' },
    );
  });
});
