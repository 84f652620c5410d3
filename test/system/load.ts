/**
 * A bounded load of HTTP calls spread over several instances, recording every answer: when, which
 * instance and route, the status (or `timeout` past the bound, `error` when the connection
 * failed), and whether `Retry-After` came with it.
 */
export interface Answer {
  readonly at: number;
  readonly phase: string;
  readonly instance: string;
  readonly route: string;
  readonly status: number | 'timeout' | 'error';
  /** From sending to the end of the answer's body (or to the failure). */
  readonly ms: number;
  readonly retryAfter: boolean;
  /** The answer's `Date` field: the server's second, which names its rate-limit window. */
  readonly date: string | null;
  readonly body: string;
}

export interface Target {
  readonly name: string;
  readonly base: string;
}

export interface Call {
  readonly route: string;
  readonly path: string;
  readonly init?: RequestInit;
  /** Called with each answer that arrived, e.g. to keep the id of an accepted request. */
  readonly onAnswer?: (answer: Answer) => void;
}

export class Recorder {
  readonly answers: Answer[] = [];
  phase = 'setup';

  constructor(private readonly boundMs: number) {}

  /** Sends one call and records its answer; never throws. */
  async send(target: Target, call: Call): Promise<Answer> {
    const at = Date.now();
    const phase = this.phase;
    let answer: Answer;
    try {
      const res = await fetch(`${target.base}${call.path}`, {
        ...call.init,
        signal: AbortSignal.timeout(this.boundMs),
      });
      const body = await res.text();
      answer = {
        at,
        phase,
        instance: target.name,
        route: call.route,
        status: res.status,
        ms: Date.now() - at,
        retryAfter: res.headers.has('retry-after'),
        date: res.headers.get('date'),
        body,
      };
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      answer = {
        at,
        phase,
        instance: target.name,
        route: call.route,
        status: timedOut ? 'timeout' : 'error',
        ms: Date.now() - at,
        retryAfter: false,
        date: null,
        body:
          err instanceof Error
            ? `${err.message} ${String((err as { cause?: unknown }).cause ?? '')}`
            : String(err),
      };
    }
    this.answers.push(answer);
    call.onAnswer?.(answer);
    return answer;
  }
}

export interface Loop {
  /** Stops sending and waits for the calls in flight. */
  stop(): Promise<void>;
}

/**
 * Sends `next()` to the targets in turn, `perSecond` calls a second, until stopped or until
 * `maxCalls` or `maxMs` is reached, whichever comes first: the loop always ends by itself.
 */
export function startLoop(
  recorder: Recorder,
  options: {
    targets: () => readonly Target[];
    next: (i: number) => Call;
    perSecond: number;
    maxCalls: number;
    maxMs: number;
  },
): Loop {
  const inFlight = new Set<Promise<unknown>>();
  const started = Date.now();
  let i = 0;
  const timer = setInterval(() => {
    const targets = options.targets();
    if (i >= options.maxCalls || Date.now() - started > options.maxMs || targets.length === 0) {
      clearInterval(timer);
      return;
    }
    const target = targets[i % targets.length] as Target;
    const p = recorder.send(target, options.next(i));
    i += 1;
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  }, 1000 / options.perSecond);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all([...inFlight]);
    },
  };
}
