/**
 * Load generator, run as its own process so it does not share an event loop with the server it
 * measures. Reads a JSON job from argv[2] and prints autocannon's summary as one JSON line.
 *
 * job: { url, method?, headers?, body?, connections, duration?, amount?, overallRate?,
 *        distinctBodies?: { template: string, placeholder: string } }
 * With distinctBodies every request gets its own body: the placeholder is replaced by a counter.
 *
 * With `amount`, requestsPerSecond is the responses over the time from the start to the last
 * response, and with `overallRate` too, over at least the schedule's length (amount / rate).
 * autocannon's own figure averages whole-second samples, and with a fixed amount its last sample
 * is a partial second counted as a whole one: 10,000 requests offered at 1,000/s that end at
 * 10.05 s read 909/s (11 samples), the same run ending at 9.98 s 1,000/s; its duration is taken at
 * that sample, so it rounds up the same way. The floor at the schedule's length is needed as
 * autocannon offers a rate in one-second windows, each connection sending its share of a window
 * back to back from the window's start: a server that answers at once is done 9.05 s into a
 * 10-second schedule, which is no faster than the rate it was offered.
 */
import autocannon from 'autocannon';

interface Job {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  duration?: number;
  amount?: number;
  overallRate?: number;
  distinctBodies?: { template: string; placeholder: string; start?: number };
}

const job = JSON.parse(process.argv[2] ?? '{}') as Job;
let counter = job.distinctBodies?.start ?? 0;

const options = {
  url: job.url,
  method: job.method ?? 'GET',
  headers: job.headers ?? {},
  ...(job.body !== undefined ? { body: job.body } : {}),
  connections: job.connections,
  ...(job.amount ? { amount: job.amount } : { duration: job.duration ?? 10 }),
  ...(job.overallRate ? { overallRate: job.overallRate } : {}),
  ...(job.distinctBodies
    ? {
        requests: [
          {
            setupRequest: (req: Record<string, unknown>) => {
              const d = job.distinctBodies as NonNullable<Job['distinctBodies']>;
              req.body = d.template.replaceAll(d.placeholder, String(counter++));
              return req;
            },
          },
        ],
      }
    : {}),
} as autocannon.Options;

const startedAt = performance.now();
let lastResponseAt = startedAt;
let responses = 0;

/** The rate of a fixed-amount job (see above); undefined for a job of a fixed duration. */
function timedRate(): number | undefined {
  if (!job.amount) return undefined;
  const scheduleSeconds = job.overallRate ? job.amount / job.overallRate : 0;
  return Math.round(responses / Math.max((lastResponseAt - startedAt) / 1000, scheduleSeconds));
}

const instance = autocannon(options, (err, result) => {
  if (err) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
  const statusCounts: Record<string, number> = {};
  for (const [k, v] of Object.entries(result as unknown as Record<string, unknown>)) {
    const m = /^(\d)xx$/.exec(k);
    if (m && typeof v === 'number') statusCounts[k] = v;
  }
  process.stdout.write(
    `${JSON.stringify({
      requestsPerSecond: timedRate() ?? result.requests.average,
      ...(job.amount ? { elapsedSeconds: Math.round(lastResponseAt - startedAt) / 1000 } : {}),
      totalRequests: result.requests.total,
      p50: result.latency.p50,
      p99: result.latency.p99,
      max: result.latency.max,
      errors: result.errors,
      timeouts: result.timeouts,
      non2xx: result.non2xx,
      durationSeconds: result.duration,
      statusCounts,
    })}\n`,
  );
});
// Only a fixed-amount job is timed; a job of a fixed duration keeps its generator's loop as it was.
if (job.amount) {
  instance.on('response', () => {
    responses += 1;
    lastResponseAt = performance.now();
  });
}
process.on('SIGTERM', () => instance.stop());
