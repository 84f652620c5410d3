import type { Redis } from 'ioredis';
import type { Tracer } from '../../domain/tracer.js';
import { TurnBatch } from '../turn-batch.js';
import type { Script } from './redis-counter-scripts.js';

type ScriptArgument = string | number;

interface Asked {
  readonly script: Script;
  readonly keys: readonly string[];
  readonly args: readonly ScriptArgument[];
  /** Traced: sends it in the context it was asked for in, so its command joins the asker's trace. */
  readonly within: (<T>(fn: () => T) => T) | undefined;
  readonly resolve: (reply: unknown) => void;
  readonly reject: (err: unknown) => void;
}

/** Runs one counter script with its keys and arguments; resolves to the script's reply. */
export type ScriptSender = (script: Script, keys: string[], args: ScriptArgument[]) => Promise<unknown>;

/**
 * The scripts asked for in one turn of the event loop are sent back to back once the turn's I/O
 * callbacks are done (`setImmediate`), in the order asked, rather than each as it is asked for.
 * Every request of a turn asks in its own callback, so each write used to find Redis asleep and
 * pay for waking it; written together (one `writev` while the socket is corked) they wake it
 * once (bench/results/history.md, Answers and Redis calls written per turn of the event loop).
 * An ioredis pipeline would also be one write, but measured fewer tokens a second than this and a
 * larger heap.
 */
export function createRedisScriptSender(redis: Redis, tracer?: Tracer): ScriptSender {
  const asked = new TurnBatch<Asked>(sendAsked);

  function send({ script, keys, args, resolve, reject }: Asked): void {
    redis.evalsha(script.sha, keys.length, ...keys, ...args).then(resolve, (err: unknown) => {
      // First use on this server (or after SCRIPT FLUSH): send the script itself once.
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) return reject(err);
      redis.eval(script.source, keys.length, ...keys, ...args).then(resolve, reject);
    });
  }

  function sendAsked(): void {
    const calls = asked.take();
    const stream = redis.status === 'ready' ? redis.stream : undefined;
    stream?.cork();
    for (const call of calls) {
      if (call.within) call.within(() => send(call));
      else send(call);
    }
    stream?.uncork();
  }

  return (script, keys, args) =>
    new Promise((resolve, reject) =>
      asked.add({ script, keys, args, within: tracer?.capture(), resolve, reject }),
    );
}
