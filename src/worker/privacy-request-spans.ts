import { errorType, type SpanOutcome, type Tracer, type TraceSpan } from '../domain/tracer.js';
import type { ProcessPrivacyRequestsInput } from '../services/privacy/process-privacy-request.js';
import { tracedWork } from './traced-work.js';

type OnOutcome = NonNullable<ProcessPrivacyRequestsInput['onOutcome']>;
type Claimed = ProcessPrivacyRequestsInput['requests'][number];

/**
 * The spans of a claim (docs/tracing.md): one per privacy request, from the start of its processing
 * to its outcome, a child of the traced call that filed it when there was one, and one for the
 * claim's processing, linked to them, in which its statements run.
 * The requests of a claim are erased together, in shared transactions, so a statement belongs to
 * the claim rather than to any one request.
 */
export function processTraced(
  tracer: Tracer | undefined,
  requests: readonly Claimed[],
  onOutcome: OnOutcome,
  process: (onOutcome: OnOutcome) => Promise<unknown>,
): Promise<unknown> {
  if (!tracer) return process(onOutcome);
  const spans = new Map<string, TraceSpan>(
    requests.map((r) => [
      r.id,
      tracer.startWork(`privacy request ${r.type}`, {
        ...(r.trace_parent ? { parent: { traceparent: r.trace_parent } } : {}),
        attributes: { 'rpa.privacy_request.id': r.id, 'rpa.privacy_request.type': r.type },
      }),
    ]),
  );
  const settle: OnOutcome = (request, outcome) => {
    spans.get(request.id)?.end({ attributes: { 'rpa.privacy_request.outcome': outcome.status } });
    spans.delete(request.id);
    return onOutcome(request, outcome);
  };
  // Those left without an outcome were handed back after a failure (privacy-worker.ts).
  const endRest = (outcome: SpanOutcome) => {
    for (const span of spans.values()) span.end(outcome);
    spans.clear();
  };
  const links = [...spans.values()].filter((s) => s.recording);
  return tracedWork(
    tracer,
    'privacy requests process',
    { attributes: { 'rpa.privacy_request.count': requests.length }, links },
    () => process(settle),
  ).then(
    (result) => {
      endRest({});
      return result;
    },
    (err: unknown) => {
      endRest({ error: errorType(err) });
      throw err;
    },
  );
}
