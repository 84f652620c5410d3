/**
 * The tracing rows of the author and token scenarios (`--scenarios …,tracing`): the same build
 * with tracing on, exporting to the run's discarding receiver (bench/otlp-sink.ts), sampled at 0.1
 * (the default ratio) and at 1.0, measured in the same turns as the service untraced.
 */
import type { ChildProcess } from 'node:child_process';
import type { BenchContext } from './bench-context.js';
import { SERVICE_TRACED_ALL, SERVICE_TRACED_SAMPLED } from './results.js';
import { startApi, type Target } from './targets.js';

export interface TracedApi {
  subject: string;
  child: ChildProcess;
  base: string;
}

/** The traced servers, or none when the run does not measure tracing. */
export async function startTracedApis(ctx: BenchContext, target: Target): Promise<TracedApi[]> {
  const sink = ctx.otlpSink;
  if (!sink) return [];
  const traced: TracedApi[] = [];
  for (const [subject, ratio] of [
    [SERVICE_TRACED_SAMPLED, 0.1],
    [SERVICE_TRACED_ALL, 1],
  ] as const) {
    const { child, base } = await startApi(ctx, target, { tracing: { sink, ratio } });
    traced.push({ subject, child, base });
  }
  return traced;
}
