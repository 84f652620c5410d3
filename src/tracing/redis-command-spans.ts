import { tracingChannel } from 'node:diagnostics_channel';
import type { CommandTraceContext } from 'ioredis';
import { errorType, type Tracer, type TraceSpan } from '../domain/tracer.js';

type Settled = CommandTraceContext & { error?: unknown };

const ignore = () => {};

/**
 * A span per Redis command made by traced work, from the channel ioredis publishes each command on
 * (its README, Diagnostics Channel): it starts in the caller's context, so the command is a child of
 * whatever asked for it, and only the command's name is kept, never its arguments. Commands of
 * every client in the process pass here; one made outside a recorded span costs a lookup. Returns
 * the unsubscription.
 */
export function traceRedisCommands(tracer: Tracer): () => void {
  const channel = tracingChannel<unknown, CommandTraceContext>('ioredis:command');
  const spans = new WeakMap<object, TraceSpan>();
  const subscribers = {
    start(command: CommandTraceContext) {
      const span = tracer.startStatement('redis', command.command.toUpperCase());
      if (span) spans.set(command, span);
    },
    asyncEnd(command: Settled) {
      const span = spans.get(command);
      if (!span) return;
      spans.delete(command);
      span.end({ error: command.error === undefined ? null : errorType(command.error) });
    },
    end: ignore,
    asyncStart: ignore,
    error: ignore,
  };
  channel.subscribe(subscribers);
  return () => channel.unsubscribe(subscribers);
}
