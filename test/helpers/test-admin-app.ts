import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { AdminScope } from '../../src/domain/admin-scope.js';
import { ADMIN_PREFIX, buildAdminServer } from '../../src/http/admin/build-admin-server.js';
import { createAdminToken } from '../../src/services/admin/create-admin-token.js';
import { createTestRuntime, type TestRuntime } from './test-runtime.js';

export interface TestAdminApp {
  readonly app: FastifyInstance;
  readonly runtime: TestRuntime;
  /** A new admin token holding `scopes`, as the Authorization header's value. */
  bearer(...scopes: AdminScope[]): Promise<string>;
  /** A call of the admin API, `url` without its /admin/v1 prefix, sent with `authorization`. */
  call(
    authorization: string,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  /**
   * Every item of a list from `url` on, following `next` links, and the URL of each page read.
   * Each page must answer 200 with a Link header naming its next page, and none on the last.
   */
  pages<T>(authorization: string, url: string): Promise<{ items: T[]; urls: string[] }>;
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
  const call: TestAdminApp['call'] = (authorization, method, url, payload, headers = {}) =>
    app.inject({
      method,
      url: `${ADMIN_PREFIX}${url}`,
      headers: { authorization, ...headers },
      ...(payload ? { payload } : {}),
    });
  return {
    app,
    runtime,
    async bearer(...scopes) {
      const { value } = await createAdminToken(runtime.deps, { name: `test ${scopes.join(' ')}`, scopes });
      return `Bearer ${value}`;
    },
    call,
    async pages<T>(authorization: string, url: string) {
      const items: T[] = [];
      const urls: string[] = [];
      let next: string | null = `${ADMIN_PREFIX}${url}`;
      while (next !== null) {
        urls.push(next);
        const res = await call(authorization, 'GET', next.slice(ADMIN_PREFIX.length));
        assert.equal(res.statusCode, 200, res.body);
        const page = res.json() as { data: T[]; next: string | null };
        items.push(...page.data);
        assert.equal(res.headers.link, page.next === null ? undefined : `<${page.next}>; rel="next"`);
        next = page.next;
      }
      return { items, urls };
    },
    async close() {
      await app.close();
      await runtime.close();
    },
  };
}
