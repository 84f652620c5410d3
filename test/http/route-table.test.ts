import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { REPO_ROOT } from '../helpers/repo-root.js';
import { createTestAdminApp } from '../helpers/test-admin-app.js';
import { createTestApp, TEST_DIALECT } from '../helpers/test-runtime.js';

/** The text of every route table: src/http/**\/*-routes.ts. */
function routeTablesText(): string {
  const dir = join(REPO_ROOT, 'src/http');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('-routes.ts'))
    .map((file) => readFileSync(join(dir, file), 'utf8'))
    .join('\n');
}

/** The prefix each API's table is registered under (build-server.ts, build-admin-server.ts). */
const API_PREFIX = /^\/(?:response|contentmanagement|privacy|auth|admin)\/v1(?=\/)/;

/** Each operation a listener serves, as `METHOD /path` under its API's prefix, as the router writes it. */
async function servedOperations(app: FastifyInstance): Promise<string[]> {
  await app.ready();
  const document = app.swagger() as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item).map(
      (method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1').replace(API_PREFIX, '')}`,
    ),
  );
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe(`route tables on ${TEST_DIALECT}`, () => {
  it('write the method and path of every operation of both listeners literally, together in one row', async () => {
    const pub = await createTestApp();
    const admin = await createTestAdminApp();
    try {
      const served = [...(await servedOperations(pub.app)), ...(await servedOperations(admin.app))];
      assert.ok(served.length > 40, `only ${served.length} operations`);
      const tables = routeTablesText();
      const unwritten = served.filter((operation) => {
        const [method, path] = operation.split(' ') as [string, string];
        return !new RegExp(`route\\('${method}',\\s*'${escaped(path)}',`).test(tables);
      });
      assert.deepEqual(unwritten, [], 'served, but written in no route table row');
    } finally {
      await admin.close();
      await pub.close();
    }
  });
});
