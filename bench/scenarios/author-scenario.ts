/**
 * GET .../clientResponses/{guid}/author through the full stack, against a bare node:http server
 * (bench/ceiling-server.ts) answering the same bytes.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { BenchContext } from '../harness/bench-context.js';
import { log } from '../harness/log.js';
import { freePort, measure, peakRssMiB, start, stop } from '../harness/processes.js';
import { row } from '../harness/results.js';
import { type Demo, getToken, startApi, type Target } from '../harness/targets.js';

export async function authorScenario(ctx: BenchContext, target: Target, demo: Demo): Promise<void> {
  const { root, connections, duration } = ctx.settings;
  const api = await startApi(ctx, target);
  try {
    const token = await getToken(api.base, demo);
    const auth = { authorization: `Bearer ${token}` };
    const create = await fetch(
      `${api.base}/response/v1/clientResponses/Acme-EN_GB/reviews/${demo.reviewIds[0]}?passkey=${demo.responsePasskey}`,
      {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          attributes: { department: 'Support', response: `Thank you ${randomBytes(4).toString('hex')}` },
        }),
      },
    );
    if (!create.ok) throw new Error(`create response failed: ${create.status} ${await create.text()}`);
    const guid = ((await create.json()) as { data: { id: string } }).data.id;
    const path = `/response/v1/clientResponses/${guid}/author?passkey=${demo.responsePasskey}`;
    const sample = await fetch(`${api.base}${path}`, { headers: auth });
    const body = await sample.text();
    if (!sample.ok) throw new Error(`author failed: ${sample.status} ${body}`);

    const ceilingPort = await freePort();
    const ceiling = await start(
      ctx.children,
      process.execPath,
      ['--import', 'tsx', join(root, 'bench/ceiling-server.ts')],
      {
        PORT: String(ceilingPort),
        BODY: body,
        CONTENT_TYPE: sample.headers.get('content-type') ?? 'application/json',
      },
    );
    try {
      log(`${target.name} author: ceiling`);
      const c = measure(root, ceiling, {
        url: `http://127.0.0.1:${ceilingPort}${path}`,
        headers: auth,
        connections,
        duration,
      });
      const cRss = peakRssMiB(ceiling);
      log(`${target.name} author: api`);
      const a = measure(root, api.child, {
        url: `${api.base}${path}`,
        headers: auth,
        connections,
        duration,
      });
      const aRss = peakRssMiB(api.child);
      ctx.rows.push(row(target.name, 'GET author', 'node:http ceiling', c, cRss));
      ctx.rows.push(row(target.name, 'GET author', 'this service', a, aRss, c));
    } finally {
      await stop(ceiling);
    }
  } finally {
    await stop(api.child);
  }
}
