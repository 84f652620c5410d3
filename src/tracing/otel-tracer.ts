import {
  type Attributes,
  type Context,
  type ContextManager,
  defaultTextMapGetter,
  defaultTextMapSetter,
  ROOT_CONTEXT,
  type Tracer as SdkTracer,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_QUERY_SUMMARY,
  ATTR_DB_SYSTEM_NAME,
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_REQUEST_METHOD_ORIGINAL,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
} from '@opentelemetry/semantic-conventions';
import type { SpanOutcome, TraceCarrier, Tracer, TraceSpan } from '../domain/tracer.js';

/*
 * The Tracer of src/domain/tracer.ts on OpenTelemetry's SDK, named by the semantic conventions
 * (https://opentelemetry.io/docs/specs/semconv/http/http-spans/, .../database/database-spans/).
 * Nothing is registered globally: the context manager and the propagator are this tracer's own,
 * so two servers in one process (tests) never see each other's spans.
 */

/** The methods semconv names; any other is `_OTHER` (RFC 9110 §9 and PATCH). */
const KNOWN_METHODS = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'CONNECT',
  'OPTIONS',
  'TRACE',
  'PATCH',
]);

/** Epoch milliseconds, sub-millisecond: the clock of OpenTelemetry's own `hrTime()`. */
const now = () => performance.timeOrigin + performance.now();

const runHere = <T>(fn: () => T): T => fn();

class OtelSpan implements TraceSpan {
  readonly recording: boolean;
  readonly traceId: string;
  #active: Context | undefined;

  constructor(
    readonly span: Span,
    private readonly startMs: number,
    /** The first status that is a failure: 500 for a server, 400 for a client; none otherwise. */
    private readonly failsFrom: number,
  ) {
    this.recording = span.isRecording();
    this.traceId = span.spanContext().traceId;
  }

  /** The context in which this span is the active one. */
  active(): Context {
    this.#active ??= trace.setSpan(ROOT_CONTEXT, this.span);
    return this.#active;
  }

  carrier(): { traceparent: string; tracestate?: string } {
    const fields: { traceparent: string; tracestate?: string } = { traceparent: '' };
    propagator.inject(this.active(), fields, defaultTextMapSetter);
    return fields;
  }

  end(outcome: SpanOutcome = {}): void {
    if (!this.recording) return;
    const { status, error, durationMs, attributes } = outcome;
    if (attributes) this.span.setAttributes(attributes);
    if (status !== undefined) this.span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
    const failed = status !== undefined ? status >= this.failsFrom : error != null;
    // A server's 4xx is not its failure, but its catalog code still says which error was answered.
    const errorType = error ?? (failed && status !== undefined ? String(status) : null);
    if (errorType) this.span.setAttribute(ATTR_ERROR_TYPE, errorType);
    if (failed) this.span.setStatus({ code: SpanStatusCode.ERROR });
    this.span.end(durationMs === undefined ? now() : this.startMs + durationMs);
  }
}

const propagator = new W3CTraceContextPropagator();

function extract(carrier: TraceCarrier): Context {
  return propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter);
}

/** Where the active span is kept: AsyncLocalStorage, or nowhere (TRACE_STATEMENTS=false). */
type Contexts = Pick<ContextManager, 'active' | 'with'>;

/** Keeps no context: every span is a root or continues a carrier, and no statement is recorded. */
export const NO_CONTEXTS: Contexts = {
  active: () => ROOT_CONTEXT,
  with: (_context, fn, thisArg, ...args) => fn.call(thisArg, ...args),
};

export function createOtelTracer(sdk: SdkTracer, contexts: Contexts): Tracer {
  const start = (
    name: string,
    kind: SpanKind,
    attributes: Attributes,
    parent: Context,
    options: { failsFrom?: number; startMs?: number; links?: readonly TraceSpan[] } = {},
  ): OtelSpan => {
    const startMs = options.startMs ?? now();
    const links = options.links?.map((l) => ({ context: (l as OtelSpan).span.spanContext() }));
    const span = sdk.startSpan(
      name,
      { kind, attributes, startTime: startMs, ...(links ? { links } : {}) },
      parent,
    );
    return new OtelSpan(span, startMs, options.failsFrom ?? Number.POSITIVE_INFINITY);
  };
  /** The active context when a recorded span is active in it, else null. */
  const recordedContext = (): Context | null => {
    const active = contexts.active();
    return trace.getSpan(active)?.isRecording() ? active : null;
  };

  return {
    startRequest({ method, route, headers }) {
      const known = KNOWN_METHODS.has(method);
      const attributes: Attributes = { [ATTR_HTTP_REQUEST_METHOD]: known ? method : '_OTHER' };
      if (!known) attributes[ATTR_HTTP_REQUEST_METHOD_ORIGINAL] = method;
      if (route) attributes[ATTR_HTTP_ROUTE] = route;
      const name = `${known ? method : 'HTTP'}${route ? ` ${route}` : ''}`;
      return start(name, SpanKind.SERVER, attributes, extract(headers), { failsFrom: 500 });
    },

    startStatement(system, name, durationMs) {
      const parent = recordedContext();
      if (!parent) return null;
      const attributes: Attributes = {
        [ATTR_DB_SYSTEM_NAME]: system,
        [ATTR_DB_QUERY_SUMMARY]: name,
        [ATTR_DB_OPERATION_NAME]: name.split(' ', 1)[0] as string,
      };
      const startMs = durationMs === undefined ? undefined : now() - durationMs;
      return start(name, SpanKind.CLIENT, attributes, parent, startMs === undefined ? {} : { startMs });
    },

    startWork(name, options = {}) {
      const parent = options.parent ? extract(options.parent) : contexts.active();
      return start(name, SpanKind.INTERNAL, { ...options.attributes }, parent, {
        ...(options.links ? { links: options.links } : {}),
      });
    },

    startCall(method, url) {
      const attributes: Attributes = {
        [ATTR_HTTP_REQUEST_METHOD]: method,
        [ATTR_SERVER_ADDRESS]: url.hostname,
        [ATTR_SERVER_PORT]: Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
      };
      return start(method, SpanKind.CLIENT, attributes, contexts.active(), { failsFrom: 400 });
    },

    within(span, fn) {
      return contexts.with((span as OtelSpan).active(), fn);
    },

    capture() {
      const parent = recordedContext();
      return parent ? <T>(fn: () => T): T => contexts.with(parent, fn) : runHere;
    },
  };
}
