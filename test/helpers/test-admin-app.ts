import type { FastifyInstance } from 'fastify';
import type { AdminScope } from '../../src/domain/admin-scope.js';
import { buildAdminServer } from '../../src/http/admin/build-admin-server.js';
import { createAdminToken } from '../../src/services/admin/create-admin-token.js';
import { createTestRuntime, type TestRuntime } from './test-runtime.js';

export interface TestAdminApp {
  readonly app: FastifyInstance;
  readonly runtime: TestRuntime;
  /** A new admin token holding `scopes`, as the Authorization header's value. */
  bearer(...scopes: AdminScope[]): Promise<string>;
  close(): Promise<void>;
}

/** The admin listener over a fresh test database, authenticating by admin token. */
export async function createTestAdminApp(
  env: Record<string, string> = {},
  options: { clock?: () => number } = {},
): Promise<TestAdminApp> {
  const runtime = await createTestRuntime(env, options);
  const app = await buildAdminServer(runtime.deps, { throttle: runtime.http.authThrottle });
  await app.ready();
  return {
    app,
    runtime,
    async bearer(...scopes) {
      const { value } = await createAdminToken(runtime.deps, { name: `test ${scopes.join(' ')}`, scopes });
      return `Bearer ${value}`;
    },
    async close() {
      await app.close();
      await runtime.close();
    },
  };
}
