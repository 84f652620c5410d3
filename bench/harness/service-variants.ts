/**
 * The service's variants that the author and token scenarios measure in the same turns: as
 * operators run it (the access log on, to a file), the same build again in a second process, at
 * LOG_LEVEL=warn, and, when the run measures tracing (`--scenarios …,tracing`), exporting to the
 * run's discarding receiver (bench/otlp-sink.ts) sampled at 0.1 (the default ratio) and at 1.0.
 *
 * The second process is the run's own noise floor: the same bytes served by an identical server
 * differ by as much as scheduling on a shared machine makes them, and a price smaller than that
 * difference cannot be told from it (bench/README.md, Reading the ratios).
 */
import type { ChildProcess } from 'node:child_process';
import type { BenchContext } from './bench-context.js';
import { stop } from './processes.js';
import {
  SERVICE,
  SERVICE_AGAIN,
  SERVICE_AT_WARN,
  SERVICE_TRACED_ALL,
  SERVICE_TRACED_SAMPLED,
} from './results.js';
import { type ApiOptions, startApi, type Target } from './targets.js';

export interface ServiceVariant {
  subject: string;
  child: ChildProcess;
  base: string;
}

/** The variants, the service as operators run it first. */
export async function startServiceVariants(ctx: BenchContext, target: Target): Promise<ServiceVariant[]> {
  const sink = ctx.otlpSink;
  const wanted: Array<[string, ApiOptions]> = [
    [SERVICE, {}],
    [SERVICE_AGAIN, {}],
    [SERVICE_AT_WARN, { logLevel: 'warn' }],
    ...(sink
      ? ([
          [SERVICE_TRACED_SAMPLED, { tracing: { sink, ratio: 0.1 } }],
          [SERVICE_TRACED_ALL, { tracing: { sink, ratio: 1 } }],
        ] as Array<[string, ApiOptions]>)
      : []),
  ];
  const variants: ServiceVariant[] = [];
  try {
    for (const [subject, options] of wanted) {
      const { child, base } = await startApi(ctx, target, options);
      variants.push({ subject, child, base });
    }
  } catch (err) {
    await stopServiceVariants(variants);
    throw err;
  }
  return variants;
}

export async function stopServiceVariants(variants: readonly ServiceVariant[]): Promise<void> {
  for (const v of [...variants].reverse()) await stop(v.child);
}
