/**
 * GET .../clientResponses/{guid}/author through the full stack, against a bare node:http server
 * (bench/ceiling-server.ts) answering the same bytes; a bare Fastify route answering them too
 * (bench/framework-floor-server.ts) shows how much of the distance is the framework's. The service
 * runs in its variants (bench/harness/service-variants.ts): as operators run it, again in a second
 * process, at LOG_LEVEL=warn, and traced when the run measures tracing.
 */
import type { BenchContext } from '../harness/bench-context.js';
import { log } from '../harness/log.js';
import { measureInterleaved, memoryOf, stop } from '../harness/processes.js';
import { rowsInTurns } from '../harness/results.js';
import { startServiceVariants, stopServiceVariants } from '../harness/service-variants.js';
import { authorPath, type Demo, getToken, startReference, type Target } from '../harness/targets.js';

export async function authorScenario(ctx: BenchContext, target: Target, demo: Demo): Promise<void> {
  const { root, connections, duration, rounds } = ctx.settings;
  const variants = await startServiceVariants(ctx, target);
  const api = variants[0] as (typeof variants)[0];
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
      const names = variants.map((v) => v.subject).join(', ');
      log(`${target.name} author: ceiling, framework floor, ${names} in ${rounds} turns`);
      const turns = measureInterleaved(
        root,
        [
          { server: ceiling.child, job: job(ceiling.base) },
          { server: floor.child, job: job(floor.base) },
          ...variants.map((v) => ({ server: v.child, job: job(v.base) })),
        ],
        rounds,
      );
      const servers = [
        { subject: 'node:http ceiling', ...memoryOf(ceiling.child) },
        { subject: 'Fastify, same bytes', ...memoryOf(floor.child) },
        ...variants.map((v) => ({ subject: v.subject, ...memoryOf(v.child) })),
      ];
      ctx.rows.push(...rowsInTurns(target.name, 'GET author', servers, turns));
    } finally {
      await stop(floor.child);
      await stop(ceiling.child);
    }
  } finally {
    await stopServiceVariants(variants);
  }
}
