import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLogger } from '../../../src/logger.js';
import { createOutageLog } from '../../../src/services/health/create-outage-log.js';
import { LogCapture } from '../../helpers/test-runtime.js';

test('an outage is logged once when it starts and once when it ends, whatever the calls in between', () => {
  const logs = new LogCapture();
  let now = 1_000;
  const outages = createOutageLog(createLogger('info', logs), () => now);
  outages.up('database');
  assert.equal(logs.lines.length, 0, 'a healthy dependency logs nothing');
  for (let i = 0; i < 500; i++)
    outages.down('database', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
  assert.equal(outages.isDown('database'), true);
  assert.equal(outages.isDown('redis'), false, 'each dependency has its own state');
  now += 20_000;
  outages.up('database');
  outages.up('database');
  assert.equal(outages.isDown('database'), false);
  const lines = logs.lines.map((l) => JSON.parse(l));
  assert.equal(lines.length, 2);
  assert.equal(lines[0].msg, 'database unavailable: outage started');
  assert.deepEqual(lines[0].cause, { message: 'connect ECONNREFUSED', code: 'ECONNREFUSED' });
  assert.equal(lines[0].cause.stack, undefined);
  assert.equal(lines[1].msg, 'database available again: outage ended');
  assert.equal(lines[1].outageMs, 20_000);
  assert.equal(lines[1].failedCalls, 500);
});
