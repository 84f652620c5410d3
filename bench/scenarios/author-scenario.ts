/**
 * GET .../clientResponses/{guid}/author through the full stack, against a bare node:http server
 * (bench/ceiling-server.ts) answering the same bytes; a bare Fastify route answering them too
 * (bench/framework-floor-server.ts) shows how much of the distance is the framework's. The service
 * runs as operators run it (the access log on, to a file), and again at LOG_LEVEL=warn: the two
 * say what the access log costs. When the run measures tracing, also traced at 0.1 and at 1.0.
 */
import type { BenchContext } from '../harness/bench-context.js';
import { log } from '../harness/log.js';
import { measureInterleaved, memoryOf, stop } from '../harness/processes.js';
import { rowsInTurns, SERVICE, SERVICE_AT_WARN } from '../harness/results.js';
import {
  authorPath,
  type Demo,
  getToken,
  startApi,
  startReference,
  type Target,
} from '../harness/targets.js';
import { startTracedApis } from '../harness/traced-apis.js';

export async function authorScenario(ctx: BenchContext, target: Target, demo: Demo): Promise<void> {
  const { root, connections, duration, rounds } = ctx.settings;
  const api = await startApi(ctx, target);
  const quiet = await startApi(ctx, target, { logLevel: 'warn' });
  const traced = await startTracedApis(ctx, target);
  try {
    const token = await getToken(api.base, demo);
    const auth = { authorization: `Bearer ${token}` };
    const path = await authorPath(api.base, demo, token);
    const sample = await fetch(`${api.base}${path}`, { headers: auth });
    const body = await sample.text();
    if (!sample.ok) throw new Error(`author failed: ${sample.status} ${body}`);

    const answer = { body, contentType: sample.headers.get('content-type') ?? 'application/json' };
    const ceiling = await startReference(ctx, 'bench/ceiling-server.ts', answer);
    const floor = await startReference(ctx, 'bench/framework-floor-server.ts', answer, {
      ROUTE: '/response/v1/clientResponses/:guid/author',
    });
    try {
      const job = (base: string) => ({ url: `${base}${path}`, headers: auth, connections, duration });
      const tracedToo = traced.length > 0 ? ', traced' : '';
      log(`${target.name} author: ceiling, framework floor, api, api at warn${tracedToo} in ${rounds} turns`);
      const turns = measureInterleaved(
        root,
        [
          { server: ceiling.child, job: job(ceiling.base) },
          { server: floor.child, job: job(floor.base) },
          { server: api.child, job: job(api.base) },
          { server: quiet.child, job: job(quiet.base) },
          ...traced.map((t) => ({ server: t.child, job: job(t.base) })),
        ],
        rounds,
      );
      const servers = [
        { subject: 'node:http ceiling', ...memoryOf(ceiling.child) },
        { subject: 'Fastify, same bytes', ...memoryOf(floor.child) },
        { subject: SERVICE, ...memoryOf(api.child) },
        { subject: SERVICE_AT_WARN, ...memoryOf(quiet.child) },
        ...traced.map((t) => ({ subject: t.subject, ...memoryOf(t.child) })),
      ];
      ctx.rows.push(...rowsInTurns(target.name, 'GET author', servers, turns));
    } finally {
      await stop(floor.child);
      await stop(ceiling.child);
    }
  } finally {
    for (const t of traced) await stop(t.child);
    await stop(quiet.child);
    await stop(api.child);
  }
}
