/**
 * Load generator, run as its own process so it does not share an event loop with the server it
 * measures. Reads a JSON job from argv[2] and prints autocannon's summary as one JSON line.
 *
 * job: { url, method?, headers?, body?, connections, duration?, amount?, overallRate?,
 *        distinctBodies?: { template: string, placeholder: string } }
 * With distinctBodies every request gets its own body: the placeholder is replaced by a counter.
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
      requestsPerSecond: result.requests.average,
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
process.on('SIGTERM', () => instance.stop());
