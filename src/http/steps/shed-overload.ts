import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';
import type { Metrics, ShedReason } from '../../services/metrics/create-metrics.js';

/**
 * Retry-After of a call refused because this process is overloaded: a balancer sends the retry
 * elsewhere at once, and a client with only this instance waits about as long as a backlog of
 * the bounded size takes to clear.
 */
const SHED_RETRY_AFTER_SECONDS = '1';

/**
 * How often the event-loop delay is read. Each reading is the mean over the last interval, so a
 * shorter one reacts sooner to an overload and lets calls in again sooner after it.
 */
const SAMPLE_INTERVAL_MS = 250;

/** The health routes mark themselves `config: { probe: true }`; a probe is never refused. */
function isProbe(request: FastifyRequest): boolean {
  return (request.routeOptions.config as { probe?: boolean } | undefined)?.probe === true;
}

function overloaded(metrics: Metrics, reason: ShedReason): AppError {
  metrics.shed(reason);
  return new AppError('SERVICE_UNAVAILABLE', {
    detail: 'the server is overloaded',
    headers: { 'retry-after': SHED_RETRY_AFTER_SECONDS },
  });
}

/**
 * Refuses a call with 503 and Retry-After, in its API's error shape (thrown to the route's error
 * handler), once the event loop lags or too many calls are being served: a call admitted past
 * that point would only wait behind the others, and a balancer that sees the 503 sends it to an
 * instance that can serve it (docs/operations.md, Overload). Registered before the routes, so its
 * hooks run first on each of them.
 */
export async function shedOverload(
  app: FastifyInstance,
  deps: { config: Pick<Config, 'shed'>; metrics: Metrics },
): Promise<void> {
  const { maxEventLoopDelayMs, maxInFlight } = deps.config.shed;
  let inFlight = 0;
  const release = () => {
    inFlight -= 1;
  };
  if (maxEventLoopDelayMs > 0)
    await app.register(underPressure, {
      maxEventLoopDelay: maxEventLoopDelayMs,
      sampleInterval: SAMPLE_INTERVAL_MS,
      pressureHandler: (request) => {
        if (isProbe(request)) return;
        throw overloaded(deps.metrics, 'event_loop_delay');
      },
    });
  if (maxInFlight > 0)
    app.addHook('onRequest', (request, reply, done) => {
      if (inFlight >= maxInFlight && !isProbe(request)) {
        throw overloaded(deps.metrics, 'in_flight');
      }
      inFlight += 1;
      // `close` comes once per answer, sent or cut off by the client, unlike `finish`.
      reply.raw.on('close', release);
      done();
    });
}
