/** The keep-alive connections of an open-loop load generator, opened before its schedule starts. */
import http from 'node:http';

/**
 * Opens `connections` connections of `agent` to `url`'s server, as a balancer has them: opened
 * during a burst, hundreds at once overflow the server's listen queue, and the SYN retries (1 s,
 * 3 s, 7 s, ...) would be measured as the server's latency.
 */
export async function openPool(agent: http.Agent, url: URL, connections: number): Promise<void> {
  const probe = () =>
    new Promise<void>((resolve) => {
      const req = http.get({ agent, host: url.hostname, port: url.port, path: '/healthz' }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', () => resolve());
    });
  // All at once: one after another, each would reuse the connection the one before left free.
  await Promise.all(Array.from({ length: connections }, probe));
}

/** The `p`th percentile of ascending `sorted`, rounded to `decimals`; NaN when it is empty. */
export function percentile(sorted: readonly number[], p: number, decimals = 0): number {
  if (sorted.length === 0) return Number.NaN;
  const value = sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
}

/**
 * Writes a load generator's last line once its calls under way are answered (at most a minute),
 * then exits: a pipe is written asynchronously, and an exit before would cut it short.
 */
export function finishWhenAnswered(outstanding: () => number, lastLine: () => unknown): void {
  const deadline = performance.now() + 60_000;
  const wait = () => {
    if (outstanding() > 0 && performance.now() < deadline) {
      setTimeout(wait, 50);
      return;
    }
    process.stdout.write(`${JSON.stringify(lastLine())}\n`, () => process.exit(0));
  };
  wait();
}
