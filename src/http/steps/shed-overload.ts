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
 * Bodies up to this size are read (and dropped) before a refusal, so the connection stays open
 * for the client's next call: answered before its body, a connection must close (build-server.ts,
 * RFC 9112 §9.6), and a client then pays a new connection for each call, which under overload
 * overflows the listen queue and turns a quick 503 into seconds of SYN retries.
 */
const DRAINED_BODY_BYTES = 65_536;

/** Rejects with `error` once the request's body, if a small one, has arrived. */
function refuseAfterBody(request: FastifyRequest, error: AppError): Promise<never> {
  const raw = request.raw;
  const length = Number(raw.headers['content-length']);
  if (raw.complete || !(length <= DRAINED_BODY_BYTES)) return Promise.reject(error);
  return new Promise((_, reject) => {
    const refuse = () => reject(error);
    raw.once('end', refuse);
    raw.once('close', refuse);
    raw.resume();
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
  // The first reading spans the start itself (modules loaded, routes compiled, migrations run):
  // a delay no call waits behind, so readings count from the second after the server is ready.
  let countsFrom = Number.POSITIVE_INFINITY;
  app.addHook('onReady', (done) => {
    countsFrom = Date.now() + 2 * SAMPLE_INTERVAL_MS;
    done();
  });
  if (maxEventLoopDelayMs > 0)
    await app.register(underPressure, {
      maxEventLoopDelay: maxEventLoopDelayMs,
      sampleInterval: SAMPLE_INTERVAL_MS,
      pressureHandler: (request) => {
        if (isProbe(request) || Date.now() < countsFrom) return;
        return refuseAfterBody(request, overloaded(deps.metrics, 'event_loop_delay'));
      },
    });
  if (maxInFlight > 0)
    app.addHook('onRequest', (request, reply, done) => {
      if (inFlight >= maxInFlight && !isProbe(request)) {
        refuseAfterBody(request, overloaded(deps.metrics, 'in_flight')).catch(done);
        return;
      }
      inFlight += 1;
      // The answer's `close` ends the call once it is sent or cut off (unlike `finish`). An answer
      // queued behind another on a pipelined connection that the client resets never gets the
      // socket and never closes, so the socket's `close` ends it too. Not the request's: that one
      // comes as soon as its body has been read.
      const socket = request.raw.socket;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        inFlight -= 1;
        socket.off('close', release);
      };
      reply.raw.once('close', release);
      socket.once('close', release);
      done();
    });
}
