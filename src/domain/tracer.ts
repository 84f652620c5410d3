/**
 * What the server says about its work to a tracer (docs/tracing.md): the spans of the requests it
 * serves, the statements they make and the background work it does. Only src/tracing implements it,
 * with OpenTelemetry, loaded when tracing is configured; absent otherwise (`ServiceDeps.tracer`),
 * so an untraced server pays one null check where a span would start. The names of attributes and
 * how they are exported are the implementation's, not its callers'.
 */

/**
 * Header fields that may carry W3C Trace Context (`traceparent`, `tracestate`:
 * https://www.w3.org/TR/trace-context/), named in lower case as Node gives them.
 */
export type TraceCarrier = Readonly<Record<string, string | readonly string[] | undefined>>;

/** The database or cache a statement is sent to. */
export type StatementSystem = 'postgresql' | 'sqlite' | 'redis';

/** How a span's work ended; every field is optional. */
export interface SpanOutcome {
  /** The HTTP status answered (a request) or received (a call). */
  readonly status?: number;
  /** Why it failed: a catalog code, a status, an error's code; null or absent when it did not. */
  readonly error?: string | null;
  /** Its length when measured by the caller (one timing per request), from the span's start. */
  readonly durationMs?: number;
  /** Low-cardinality facts known at the end (an outcome name). */
  readonly attributes?: Readonly<Record<string, string | number | boolean>>;
}

export interface TraceSpan {
  /** Whether it is recorded and exported (sampled); a span that is not still carries its trace. */
  readonly recording: boolean;
  /** The trace's id, 32 lower-case hexadecimal digits. */
  readonly traceId: string;
  /** The fields that name this span as the parent of a call it makes. */
  carrier(): { traceparent: string; tracestate?: string };
  end(outcome?: SpanOutcome): void;
}

export interface Tracer {
  /** The SERVER span of an HTTP request, continuing the caller's trace when its headers carry one. */
  startRequest(request: { method: string; route: string | null; headers: TraceCarrier }): TraceSpan;
  /**
   * A statement made by the active span's work, as a child of it: started now, or `durationMs`
   * ago when it is recorded once done. Null when no recorded span is active, so statements made
   * outside traced work (housekeeping, unsampled requests) cost nothing more.
   */
  startStatement(system: StatementSystem, name: string, durationMs?: number): TraceSpan | null;
  /**
   * A unit of background work: a child of the active span, or a root of its own (continuing
   * `parent` when given, a traceparent stored with the work), linked to the spans in `links`.
   */
  startWork(
    name: string,
    options?: { parent?: TraceCarrier; links?: readonly TraceSpan[]; attributes?: SpanOutcome['attributes'] },
  ): TraceSpan;
  /** The CLIENT span of an HTTP call this work makes, a child of the active span. */
  startCall(method: string, url: URL): TraceSpan;
  /** Runs `fn` with `span` active, so the statements it makes (awaited or not) are its children. */
  within<T>(span: TraceSpan, fn: () => T): T;
  /**
   * A runner of functions in the context active now: work asked for here and done later with
   * others' (a batch of a turn) is then a child of whoever asked for it.
   */
  capture(): <T>(fn: () => T) => T;
}

/** A failure's low-cardinality type: its code (a SQLSTATE, `SQLITE_BUSY`, `ECONNRESET`), else its class. */
export function errorType(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code) return code;
  return err instanceof Error ? err.name : 'Error';
}
