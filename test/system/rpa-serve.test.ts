import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { rpaNodeArgs } from '../helpers/rpa-cli.js';
import { dropSchema, TEST_DATABASE_URL, TEST_DIALECT, uniqueSchema } from '../helpers/test-runtime.js';

const dir = mkdtempSync(join(tmpdir(), 'rpa-serve-'));
const schema = TEST_DIALECT === 'postgres' ? uniqueSchema() : undefined;

function startServer(
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; port: number; output: () => string }> {
  const child = spawn(process.execPath, rpaNodeArgs(['serve']), {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: TEST_DIALECT === 'postgres' ? TEST_DATABASE_URL : `sqlite:${join(dir, 'serve.db')}`,
      DATABASE_SCHEMA: schema ?? '',
      LOG_LEVEL: 'info',
      SHUTDOWN_DELAY_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m && /"msg":"serving"/.test(out)) resolve({ child, port: Number(m[1]), output: () => out });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
}

/** The port a side listener logged it serves on (`msg`), waited for up to 5 s. */
async function loggedPort(output: () => string, msg: string): Promise<number> {
  const line = new RegExp(`"port":(\\d+),"msg":"${msg}"`);
  for (let i = 0; i < 100; i++) {
    const m = line.exec(output());
    if (m) return Number(m[1]);
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`no "${msg}" line with its port: ${output()}`);
}

/** One request on a connection of its own (no keep-alive pool): its status and body. */
function onNewConnection(
  port: number,
  method: string,
  path: string,
  body?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent: false }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => {
        text += d.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    if (body) req.setHeader('content-type', 'application/x-www-form-urlencoded');
    req.end(body);
  });
}

describe(`rpa serve on ${TEST_DIALECT}`, () => {
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    if (schema) await dropSchema(TEST_DATABASE_URL, schema);
  });

  it('serves metrics on a listener of its own when METRICS_PORT is set', async () => {
    const { child, port, output } = await startServer({ METRICS_PORT: '0' });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const metricsPort = await loggedPort(output, 'serving metrics');
      assert.notEqual(metricsPort, port);
      assert.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200);
      const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      assert.equal(scraped.status, 200);
      const text = await scraped.text();
      assert.match(text, /^rpa_http_requests_total\{route="\/healthz",method="GET",status_class="2xx"\} 1$/m);
      assert.match(text, /^rpa_process_resident_memory_bytes \d+/m);
      assert.equal((await fetch(`http://127.0.0.1:${port}/metrics`)).status, 404);
    } finally {
      child.kill('SIGTERM');
    }
    assert.equal(await exited, 0);
  });

  it('serves the admin API on ADMIN_PORT only, with admin tokens', async () => {
    const { child, port, output } = await startServer({ ADMIN_PORT: '0' });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const adminPort = await loggedPort(output, 'serving the admin API');
      assert.notEqual(adminPort, port);
      const admin = `http://127.0.0.1:${adminPort}/admin/v1`;
      assert.equal((await fetch(`${admin}/openapi.json`)).status, 200);
      const refused = await fetch(`${admin}/production/clients`);
      assert.equal(refused.status, 401);
      assert.equal(refused.headers.get('www-authenticate'), 'Bearer realm="admin"');
      assert.equal((await fetch(`http://127.0.0.1:${port}/admin/v1/openapi.json`)).status, 404);
      assert.equal((await fetch(`http://127.0.0.1:${port}/admin/v1/production/clients`)).status, 404);
    } finally {
      child.kill('SIGTERM');
    }
    assert.equal(await exited, 0);
  });

  it('answers /readyz, and on SIGTERM finishes an in-flight request before exiting 0', async () => {
    const { child, port, output } = await startServer();
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    assert.equal(ready.status, 200);
    assert.equal(((await ready.json()) as { database: string }).database, TEST_DIALECT);

    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // A request whose body is still arriving when the signal comes must still get its answer.
    const answered = new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/auth/v1/oauth2/token',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '28' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.write('grant_type=client_');
      setTimeout(() => {
        child.kill('SIGTERM');
        setTimeout(() => req.end('credential'), 300);
      }, 100);
    });
    const status = await answered;
    assert.ok(status >= 400 && status < 500, `in-flight request answered ${status}`);
    assert.equal(await exited, 0, output());
    assert.match(output(), /shutting down/);
  });

  it('on SIGTERM fails readiness at once and still serves new connections for SHUTDOWN_DELAY_MS', async () => {
    const { child, port, output } = await startServer({ SHUTDOWN_DELAY_MS: '3000' });
    assert.equal((await onNewConnection(port, 'GET', '/readyz')).status, 200);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const signalled = Date.now();
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 200));
    const ready = await onNewConnection(port, 'GET', '/readyz');
    assert.equal(ready.status, 503, ready.body);
    assert.match(JSON.parse(ready.body).detail, /shutting down/);
    const token = await onNewConnection(
      port,
      'POST',
      '/auth/v1/oauth2/token',
      'grant_type=client_credentials',
    );
    assert.ok(
      token.status >= 400 && token.status < 500,
      `served, not refused: ${token.status} ${token.body}`,
    );
    assert.ok(Date.now() - signalled < 3000, 'both within the delay');
    assert.equal(await exited, 0, output());
    assert.ok(Date.now() - signalled >= 3000, 'the listener stayed open for the delay');
  });
});
