import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { type Browser, chromium } from 'playwright-core';
import { createTestApp, type TestApp } from '../../helpers/test-runtime.js';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

describe('/ and /docs without a browser', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());
  const get = (url: string, accept = '*/*') =>
    t.app.inject({ url, headers: { host: 'localhost:8080', accept } });

  it('links / to the reference and the document, as HTML for browsers and JSON for others', async () => {
    const html = await get('/', 'text/html,application/xhtml+xml');
    assert.equal(html.statusCode, 200);
    assert.match(String(html.headers['content-type']), /^text\/html/);
    assert.match(html.body, /href="\/docs"/);
    assert.match(html.body, /href="\/openapi.json"/);
    const json = await get('/', 'application/json');
    assert.equal(json.statusCode, 200);
    assert.deepEqual(json.json().links.docs, '/docs');
  });

  it('serves the reference page and its script from this server, pinned to this origin', async () => {
    const page = await get('/docs/', 'text/html');
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(String(page.headers['content-security-policy']), /default-src 'self'/);
    assert.doesNotMatch(page.body, /https?:\/\//, 'the page names no other host');
    const script = await get('/docs/js/scalar.js');
    assert.equal(script.statusCode, 200);
    for (const url of ['/docs', '/api-docs']) {
      const moved = await get(url);
      assert.ok([301, 308].includes(moved.statusCode), url);
      assert.equal(moved.headers.location, '/docs/');
    }
  });
});

describe('the API reference in a browser', {
  skip: existsSync(CHROMIUM)
    ? false
    : `no Chromium at ${CHROMIUM}: install Debian's chromium package to run it`,
}, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;

  before(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    assert.ok(address && typeof address === 'object');
    base = `http://127.0.0.1:${address.port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      // As root in a container, and without the background traffic a closed network refuses;
      // playwright gives each launch a new, empty profile.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('renders every operation, the forget request and the author among them, loading nothing from elsewhere', async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    const refused: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
    });
    await page.goto(`${base}/docs`);
    for (const summary of ['File a forget request', 'Get the author of a response']) {
      await page.getByText(summary).first().waitFor({ timeout: 60_000 });
    }
    const text = await page.locator('body').innerText();
    for (const summary of ['File an access request', 'Answer a review', 'Get an access token'])
      assert.ok(text.includes(summary), `${summary} is on the page`);
    const elsewhere = requested.filter((u) => !u.startsWith(`${base}/`) && !/^(data|blob):/.test(u));
    assert.deepEqual(elsewhere, [], 'every request went to this server');
    assert.ok(requested.includes(`${base}/openapi.json`), 'the page read /openapi.json');
    assert.deepEqual(refused, [], 'nothing was refused by the page policy');
    await page.close();
  });
});
