import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import { deferredRequestLogger } from '../../src/http/deferred-request-logger.js';
import { createLogger } from '../../src/logger.js';
import { LogCapture } from '../helpers/test-runtime.js';

function parentCountingChildren(level: string) {
  const logs = new LogCapture();
  const logger = createLogger(level, logs);
  let children = 0;
  const child = logger.child.bind(logger);
  logger.child = ((...args: Parameters<typeof child>) => {
    children++;
    return child(...args);
  }) as typeof logger.child;
  return { logs, logger: logger as unknown as FastifyBaseLogger, children: () => children };
}

describe('request loggers', () => {
  it('make no child while nothing is logged at an enabled level', () => {
    const p = parentCountingChildren('warn');
    const log = deferredRequestLogger(p.logger, { reqId: 'r-1' }, {});
    log.info('incoming request');
    log.debug({ detail: 1 }, 'not written');
    assert.equal(p.children(), 0);
    assert.equal(p.logs.lines.length, 0);
    assert.equal(log.level, 'warn');
  });

  it('write what the child writes, bindings and redaction included', () => {
    const p = parentCountingChildren('info');
    const log = deferredRequestLogger(p.logger, { reqId: 'r-2' }, {});
    log.info({ passkey: 'pk_secret', nested: { token: 'tk_secret' } }, 'first');
    log.error('second');
    assert.equal(p.children(), 1);
    const lines = p.logs.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(
      lines.map((l) => [l.reqId, l.msg, l.passkey, (l.nested as { token?: string } | undefined)?.token]),
      [
        ['r-2', 'first', '[REDACTED]', '[REDACTED]'],
        ['r-2', 'second', undefined, undefined],
      ],
    );
    assert.ok(!p.logs.text().includes('secret'));
  });

  it('make the child at once for a route with its own log level', () => {
    const p = parentCountingChildren('warn');
    const log = deferredRequestLogger(p.logger, { reqId: 'r-3' }, { level: 'debug' });
    assert.equal(p.children(), 1);
    log.debug('written at the route’s level');
    assert.equal(p.logs.lines.length, 1);
  });
});
