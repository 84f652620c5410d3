/**
 * POST /auth/v1/oauth2/token (client credentials) against node-oidc-provider's token endpoint
 * (bench/oidc-peer.ts).
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { BenchContext } from '../harness/bench-context.js';
import { log } from '../harness/log.js';
import { freePort, measureInterleaved, peakRssMiB, start, stop } from '../harness/processes.js';
import { rowsInTurns } from '../harness/results.js';
import { type Demo, startApi, type Target } from '../harness/targets.js';

export async function tokenScenario(ctx: BenchContext, target: Target, demo: Demo): Promise<void> {
  const { root, connections, duration, rounds } = ctx.settings;
  const api = await startApi(ctx, target);
  const peerPort = await freePort();
  const peerSecret = randomBytes(32).toString('base64url');
  const peer = await start(
    ctx.children,
    process.execPath,
    ['--import', 'tsx', join(root, 'bench/oidc-peer.ts')],
    {
      PORT: String(peerPort),
      CLIENT_ID: 'bench-client',
      CLIENT_SECRET: peerSecret,
    },
  );
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  try {
    log(`${target.name} token: peer and api in ${rounds} turns`);
    const turns = measureInterleaved(
      root,
      [
        {
          server: peer,
          job: {
            url: `http://127.0.0.1:${peerPort}/token`,
            method: 'POST',
            headers: form,
            body: `grant_type=client_credentials&client_id=bench-client&client_secret=${peerSecret}&scope=offline_access`,
            connections,
            duration,
          },
        },
        {
          server: api.child,
          job: {
            url: `${api.base}/auth/v1/oauth2/token`,
            method: 'POST',
            headers: form,
            body: new URLSearchParams({
              grant_type: 'client_credentials',
              client_id: demo.clientId,
              client_secret: demo.clientSecret,
            }).toString(),
            connections,
            duration,
          },
        },
      ],
      rounds,
    );
    const servers = [
      { subject: 'node-oidc-provider', rssMiB: peakRssMiB(peer) },
      { subject: 'this service', rssMiB: peakRssMiB(api.child) },
    ];
    ctx.rows.push(...rowsInTurns(target.name, 'POST token', servers, turns));
  } finally {
    await stop(peer);
    await stop(api.child);
  }
}
