#!/usr/bin/env node
// Exits 0 when PostgreSQL (DATABASE_URL) and Redis (REDIS_URL) both answer, 1 otherwise.
import net from 'node:net';
import pg from 'pg';

async function checkPostgres(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  await client.query('select 1');
  await client.end();
}

function checkRedis(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379), timeout: 3000 });
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (d) => {
      socket.destroy();
      d.toString().startsWith('+PONG') ? resolve() : reject(new Error(`unexpected reply ${d}`));
    });
    socket.once('timeout', () => socket.destroy(new Error('timed out')));
    socket.once('error', reject);
  });
}

let ok = true;
for (const [name, fn, url] of [
  ['PostgreSQL', checkPostgres, process.env.DATABASE_URL],
  ['Redis', checkRedis, process.env.REDIS_URL],
]) {
  try {
    await fn(url);
    console.log(`${name} reachable`);
  } catch (err) {
    ok = false;
    console.error(`${name} unreachable at ${url}: ${err.message}`);
  }
}
process.exit(ok ? 0 : 1);
