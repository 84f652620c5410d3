import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Tracer, TraceSpan } from '../domain/tracer.js';

/**
 * One SERVER span per request, continuing the caller's W3C trace (docs/tracing.md), started in the
 * first onRequest hook and ended by the response observation with the access line's own timing
 * (`endRequestSpan`). Recorded, the span is the active one for the rest of the request, so the
 * statements its steps and handler make are its children. Without a tracer only the decorations
 * are added: `traceId` stays null and no hook runs.
 */
export function traceRequests(app: FastifyInstance, tracer: Tracer | undefined): void {
  app.decorateRequest('traceId', null);
  app.decorateRequest('requestSpan', null);
  if (!tracer) return;
  app.addHook('onRequest', (request, _reply, done) => {
    const span = tracer.startRequest({
      method: request.method,
      route: request.routeOptions.url ?? null,
      headers: request.headers,
    });
    // An unsampled request carries no context: its statements would start no span anyway.
    if (!span.recording) return done();
    request.requestSpan = span;
    request.traceId = span.traceId;
    // The rest of the request runs inside: Fastify carries the context across the reading of a
    // body, which arrives in the connection's own callbacks (an AsyncResource in its
    // content-type-parser.js), so one entry covers the steps and the handler.
    tracer.within(span, done);
  });
}

/**
 * Ends a request's span as its access line reports it: `ms` is the line's own timing, and an
 * error answer is named by its catalog code, or its status when it has none.
 */
export function endRequestSpan(span: TraceSpan, request: FastifyRequest, status: number, ms: number): void {
  span.end({ status, error: status >= 400 ? (request.errorCode ?? String(status)) : null, durationMs: ms });
}
