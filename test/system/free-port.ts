import { createServer } from 'node:net';

/** The shared PostgreSQL and Redis every other test uses: the system suite never binds or stops them. */
export const SHARED_PORTS: readonly number[] = [5432, 6379];

/** A loopback TCP port free at the time of asking. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        address && typeof address !== 'string' ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
