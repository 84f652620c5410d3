/**
 * POST /auth/v1/oauth2/token (client credentials) against node-oidc-provider's token endpoint
 * (bench/oidc-peer.ts). A bare node:http server and a bare Fastify form route answering the same
 * bytes show what any token endpoint on this runtime, and on this framework, could serve at most.
 * The service runs in its variants (bench/harness/service-variants.ts): as operators run it, again
 * in a second process, at LOG_LEVEL=warn, and traced when the run measures tracing.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { BenchContext } from '../harness/bench-context.js';
import { log } from '../harness/log.js';
import { freePort, measureInterleaved, memoryOf, start, stop } from '../harness/processes.js';
import { rowsInTurns } from '../harness/results.js';
import { startServiceVariants, stopServiceVariants } from '../harness/service-variants.js';
import { type Demo, startReference, type Target, tokenForm } from '../harness/targets.js';

const TOKEN_PATH = '/auth/v1/oauth2/token';

export async function tokenScenario(ctx: BenchContext, target: Target, demo: Demo): Promise<void> {
  const { root, connections, duration, rounds } = ctx.settings;
  const variants = await startServiceVariants(ctx, target);
  const api = variants[0] as (typeof variants)[0];
  const peerPort = await freePort();
  const peerSecret = randomBytes(32).toString('base64url');
  const peer = await start(
    ctx.children,
    process.execPath,
    ['--import', 'tsx', join(root, 'bench/oidc-peer.ts')],
    { env: { PORT: String(peerPort), CLIENT_ID: 'bench-client', CLIENT_SECRET: peerSecret } },
  );
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const apiForm = tokenForm(demo);
  const references: Array<Awaited<ReturnType<typeof startReference>>> = [];
  try {
    const sample = await fetch(`${api.base}${TOKEN_PATH}`, { method: 'POST', headers: form, body: apiForm });
    const answer = { body: await sample.text(), contentType: sample.headers.get('content-type') ?? '' };
    if (!sample.ok) throw new Error(`token failed: ${sample.status} ${answer.body}`);
    const ceiling = await startReference(ctx, 'bench/ceiling-server.ts', answer);
    references.push(ceiling);
    const floor = await startReference(ctx, 'bench/framework-floor-server.ts', answer, {
      ROUTE: TOKEN_PATH,
      METHOD: 'POST',
    });
    references.push(floor);
    const job = (url: string, body = apiForm) => ({
      url,
      method: 'POST',
      headers: form,
      body,
      connections,
      duration,
    });
    const peerForm = `grant_type=client_credentials&client_id=bench-client&client_secret=${peerSecret}&scope=offline_access`;
    const names = variants.map((v) => v.subject).join(', ');
    log(`${target.name} token: peer, ceiling, framework floor, ${names} in ${rounds} turns`);
    const turns = measureInterleaved(
      root,
      [
        { server: peer, job: job(`http://127.0.0.1:${peerPort}/token`, peerForm) },
        { server: ceiling.child, job: job(`${ceiling.base}${TOKEN_PATH}`) },
        { server: floor.child, job: job(`${floor.base}${TOKEN_PATH}`) },
        ...variants.map((v) => ({ server: v.child, job: job(`${v.base}${TOKEN_PATH}`) })),
      ],
      rounds,
    );
    const servers = [
      { subject: 'node-oidc-provider', ...memoryOf(peer) },
      { subject: 'node:http, same bytes', ...memoryOf(ceiling.child) },
      { subject: 'Fastify form route, same bytes', ...memoryOf(floor.child) },
      ...variants.map((v) => ({ subject: v.subject, ...memoryOf(v.child) })),
    ];
    ctx.rows.push(...rowsInTurns(target.name, 'POST token', servers, turns));
  } finally {
    for (const reference of references) await stop(reference.child);
    await stop(peer);
    await stopServiceVariants(variants);
  }
}
