import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// A full collection on demand, so what is still reachable can be weighed.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** Bytes of the heap still in use after a full garbage collection. */
export function heapAfterCollection(): number {
  collect();
  return process.memoryUsage().heapUsed;
}
