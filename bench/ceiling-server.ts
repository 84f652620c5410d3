/**
 * The ceiling: a bare node:http server answering every request with the same bytes and headers
 * the API answers for the benchmarked endpoint. Nothing can serve those bytes faster on this
 * runtime, so the API's throughput is reported as a ratio of this one.
 * Input (env): BODY (the exact body), CONTENT_TYPE, PORT. Prints "listening <port>" when ready.
 */
import { answerFromEnv, ceilingServer } from './harness/reference-servers.js';

const server = ceilingServer(answerFromEnv());
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : ''}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
