import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import type { AccessAnswer, AccessRequest } from '../../src/http/access-line.js';
import { type AccessLogOptions, createAccessLog } from '../../src/http/access-log.js';
import { createLogger } from '../../src/logger.js';

const request: AccessRequest = {
  id: 'req-1',
  method: 'GET',
  url: '/healthz',
  host: 'localhost',
  ip: '127.0.0.1',
  errorCode: null,
  traceId: null,
};
const answer: AccessAnswer = {
  route: '/healthz',
  status: 200,
  ms: 1,
  applicationId: undefined,
  passkeyId: undefined,
  actor: undefined,
};

function accessLog(env: Record<string, string>, options: Partial<AccessLogOptions> = {}) {
  const lines: string[] = [];
  const logger = createLogger(env.LOG_LEVEL ?? 'info', { write: (line: string) => void lines.push(line) });
  const log = createAccessLog(
    { config: loadConfig(env), logger },
    { msg: 'request completed', sampled: true, ...options },
  );
  return { log, lines };
}

/** Which of these answers (status, milliseconds) get a line. */
const kept = (log: ReturnType<typeof accessLog>['log'], answers: [number, number][]) =>
  answers.filter(([status, ms]) => log.keeps(status, ms)).map(([status, ms]) => `${status}@${ms}`);

const ANSWERS: [number, number][] = [
  [200, 5],
  [304, 5],
  [200, 999],
  [200, 1000],
  [400, 5],
  [404, 5],
  [429, 5],
  [500, 5],
  [503, 5],
];

describe('the access log', () => {
  it('keeps every answer by default (ACCESS_LOG=on, ACCESS_LOG_SAMPLE=1)', () => {
    assert.deepEqual(
      kept(accessLog({}).log, ANSWERS),
      ANSWERS.map(([s, ms]) => `${s}@${ms}`),
    );
  });

  it('keeps only 4xx, 5xx and calls of ACCESS_LOG_SLOW_MS or more with ACCESS_LOG=errors', () => {
    assert.deepEqual(kept(accessLog({ ACCESS_LOG: 'errors' }).log, ANSWERS), [
      '200@1000',
      '400@5',
      '404@5',
      '429@5',
      '500@5',
      '503@5',
    ]);
    const slowAt = accessLog({ ACCESS_LOG: 'errors', ACCESS_LOG_SLOW_MS: '250' }).log;
    assert.deepEqual(
      kept(slowAt, [
        [200, 249.9],
        [200, 250],
        [302, 4000],
      ]),
      ['200@250', '302@4000'],
    );
  });

  it('keeps nothing with ACCESS_LOG=off, errors and slow calls included', () => {
    assert.deepEqual(kept(accessLog({ ACCESS_LOG: 'off' }).log, ANSWERS), []);
  });

  it('keeps nothing below info: LOG_LEVEL=warn turns it off whatever ACCESS_LOG says', () => {
    assert.deepEqual(kept(accessLog({ LOG_LEVEL: 'warn' }).log, ANSWERS), []);
    assert.deepEqual(kept(accessLog({ LOG_LEVEL: 'warn', ACCESS_LOG: 'errors' }).log, ANSWERS), []);
  });

  it('samples 2xx and 3xx answers at ACCESS_LOG_SAMPLE, and keeps every 4xx, 5xx and slow call', () => {
    const draws = [0.1, 0.3, 0.29, 0.9];
    const { log } = accessLog({ ACCESS_LOG_SAMPLE: '0.3' }, { random: () => draws.shift() ?? 1 });
    const answers: [number, number][] = [
      [200, 5],
      [404, 5],
      [200, 5],
      [500, 5],
      [201, 5],
      [200, 1500],
      [302, 5],
    ];
    assert.deepEqual(kept(log, answers), ['200@5', '404@5', '500@5', '201@5', '200@1500']);
    assert.deepEqual(draws, [], 'one draw per 2xx or 3xx answer that is not slow');
    const none = accessLog({ ACCESS_LOG_SAMPLE: '0' }).log;
    assert.deepEqual(kept(none, ANSWERS), ['200@1000', '400@5', '404@5', '429@5', '500@5', '503@5']);
  });

  it('does not sample a listener whose lines are all kept (the admin listener)', () => {
    const { log } = accessLog({ ACCESS_LOG_SAMPLE: '0' }, { sampled: false, random: () => 0.99 });
    assert.deepEqual(
      kept(log, [
        [200, 5],
        [404, 5],
      ]),
      ['200@5', '404@5'],
    );
    assert.deepEqual(kept(accessLog({ ACCESS_LOG: 'errors' }, { sampled: false }).log, [[200, 5]]), []);
  });

  it("writes each line in the logger's stream, with its level, time and bindings, after its other lines", () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    const log = createAccessLog(
      { config: loadConfig({}), logger },
      { msg: 'request completed', sampled: true },
    );
    logger.info('before');
    log.write(request, answer);
    logger.warn('after');
    assert.deepEqual(
      lines.map((l) => JSON.parse(l).msg),
      ['before', 'request completed', 'after'],
    );
    const line = JSON.parse(lines[1] as string);
    assert.equal(line.level, 30);
    assert.equal(line.service, 'reviews-partner-api');
    assert.equal(new Date(line.time).toISOString(), line.time);
    assert.deepEqual(Object.keys(line).slice(0, 4), ['level', 'time', 'service', 'reqId']);
  });
});
