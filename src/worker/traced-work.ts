import { errorType, type SpanOutcome, type Tracer, type TraceSpan } from '../domain/tracer.js';

type Attributes = NonNullable<SpanOutcome['attributes']>;

/**
 * Runs a unit of background work in a span of its own (docs/tracing.md), active while it runs so
 * its statements and calls are its children: ended with what `outcome` says of its result, or the
 * type of the error it threw. Without a tracer, `work` runs as it is.
 */
export function tracedWork<T>(
  tracer: Tracer | undefined,
  name: string,
  options: { attributes?: Attributes; links?: readonly TraceSpan[]; outcome?: (result: T) => Attributes },
  work: () => Promise<T>,
): Promise<T> {
  if (!tracer) return work();
  const span = tracer.startWork(name, {
    ...(options.attributes ? { attributes: options.attributes } : {}),
    ...(options.links ? { links: options.links } : {}),
  });
  return tracer.within(span, work).then(
    (result) => {
      span.end(options.outcome ? { attributes: options.outcome(result) } : {});
      return result;
    },
    (err: unknown) => {
      span.end({ error: errorType(err) });
      throw err;
    },
  );
}
