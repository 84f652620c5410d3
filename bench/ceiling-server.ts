/**
 * The ceiling: a bare node:http server answering every request with the same bytes and headers
 * the API answers for the benchmarked endpoint. Nothing can serve those bytes faster on this
 * runtime, so the API's throughput is reported as a ratio of this one.
 * Input (env): BODY (the exact body), CONTENT_TYPE, PORT. Prints "listening <port>" when ready.
 */
import { createServer } from 'node:http';

const body = Buffer.from(process.env.BODY ?? '{}', 'utf8');
const contentType = process.env.CONTENT_TYPE ?? 'application/json; charset=utf-8';

const server = createServer((req, res) => {
  // Drain any request body so keep-alive connections stay usable.
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
    res.end(body);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : ''}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
