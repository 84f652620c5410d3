import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLogger } from '../../../src/logger.js';
import { createOutageLog, OUTAGE_HOLD_MS } from '../../../src/services/health/create-outage-log.js';
import { LogCapture } from '../../helpers/test-runtime.js';

test('an outage is logged once when it starts and once when it ends, whatever the calls in between', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
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
  now += OUTAGE_HOLD_MS;
  t.mock.timers.tick(OUTAGE_HOLD_MS);
  const lines = logs.lines.map((l) => JSON.parse(l));
  assert.equal(lines.length, 2);
  assert.equal(lines[0].msg, 'database unavailable: outage started');
  assert.deepEqual(lines[0].cause, { message: 'connect ECONNREFUSED', code: 'ECONNREFUSED' });
  assert.equal(lines[0].cause.stack, undefined);
  assert.equal(lines[1].msg, 'database available again: outage ended');
  assert.equal(lines[1].outageMs, 20_000);
  assert.equal(lines[1].failedCalls, 500);
});

test('a dependency that flaps logs one outage, ended once it served for the hold period', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const logs = new LogCapture();
  let now = 0;
  const changes: boolean[] = [];
  const outages = createOutageLog(createLogger('info', logs), () => now, {
    holdMs: 2_000,
    onChange: (_dependency, up) => changes.push(up),
  });
  const fail = () => outages.down('redis', new Error('Connection is closed.'));
  const advance = (ms: number) => {
    now += ms;
    t.mock.timers.tick(ms);
  };
  fail();
  // An empty Redis coming back: answers, fails, answers, ... four times within 1.6 s.
  for (let i = 0; i < 4; i++) {
    advance(200);
    outages.up('redis');
    assert.equal(outages.isDown('redis'), false, 'the last call succeeded');
    advance(200);
    fail();
  }
  advance(100);
  outages.up('redis');
  advance(1_999);
  assert.equal(logs.lines.length, 1, 'still within the hold: only the start is logged');
  advance(1);
  const lines = logs.lines.map((l) => JSON.parse(l));
  assert.deepEqual(
    lines.map((l) => l.msg),
    ['redis unavailable: outage started', 'redis available again: outage ended'],
  );
  assert.equal(lines[1].outageMs, 1_700, 'up to the call that began the hold');
  assert.equal(lines[1].failedCalls, 5);
  assert.deepEqual(changes, [false, true]);
});

test('without a hold an outage ends with the first success', () => {
  const logs = new LogCapture();
  const outages = createOutageLog(createLogger('info', logs), () => 0, { holdMs: 0 });
  outages.down('database', new Error('gone'));
  outages.up('database');
  assert.equal(logs.lines.length, 2);
});
