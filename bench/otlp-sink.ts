/**
 * A discarding OTLP/HTTP traces receiver for the tracing rows of the author and token scenarios:
 * answers every POST /v1/traces with 200 and an empty body (an empty ExportTraceServiceResponse,
 * success in either protocol) once the body has been read, and keeps nothing, so the traced
 * servers pay for exporting, not for a collector's backlog. Input (env): PORT. Prints
 * "listening <port>" when ready.
 */
import { createServer } from 'node:http';

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const traces = req.method === 'POST' && req.url === '/v1/traces';
    res.writeHead(traces ? 200 : 404, { 'content-length': '0' }).end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : ''}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
