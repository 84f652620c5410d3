/**
 * The framework's floor: a bare Fastify 5 server with one route that answers the same bytes and
 * content type as the API's benchmarked endpoint. What the API adds over it is this service's own
 * work; what it costs over the node:http ceiling is Fastify's.
 * Input (env): BODY, CONTENT_TYPE, ROUTE (a Fastify path), METHOD (GET or POST), PORT. Prints
 * "listening <port>" when ready.
 */
import { answerFromEnv, frameworkFloor } from './harness/reference-servers.js';

const app = frameworkFloor(
  answerFromEnv(),
  process.env.ROUTE ?? '/*',
  process.env.METHOD === 'POST' ? 'POST' : 'GET',
);
const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
process.stdout.write(`listening ${new URL(address).port}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
