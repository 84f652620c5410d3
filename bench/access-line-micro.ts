// In-process cost of one access line, built and handed to the log stream (a stream that drops it,
// so writing is left out): pino's generic path as the line was written before (the `req`
// serializer, a child without redaction paths), the same fields through fast-json-stringify (as
// Fastify compiles a schema), and the fixed-schema line (src/http/access-line.ts).
// `node --import tsx bench/access-line-micro.ts [lines] [rounds]`. The rounds alternate, and each
// figure is the median of its rounds, in CPU time per line.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { redactUrl } from '../src/domain/redact-url.js';
import type { AccessAnswer, AccessRequest } from '../src/http/access-line.js';
import { createAccessLog } from '../src/http/access-log.js';
import { createLogger } from '../src/logger.js';

const lines = Number(process.argv[2] ?? 200_000);
const rounds = Number(process.argv[3] ?? 7);
const dropped = { write: (_line: string) => {} };

// The bench's two scenarios (bench/harness/targets.ts): an author read with its passkey in the
// query, whose masking is most of the cost, and a token request, whose URL has nothing to mask.
const author: AccessRequest = {
  id: '0f5b3c1e-9d8a-4c2b-8e7f-6a5d4c3b2a19',
  method: 'GET',
  url: '/response/v1/clientResponses/0193a2b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b/author?passkey=rpa_pk_AbCdEfGhIjKlMnOpQrStUvWxYz012345',
  host: 'localhost:8080',
  ip: '127.0.0.1',
  errorCode: null,
  traceId: null,
};
const token: AccessRequest = { ...author, method: 'POST', url: '/auth/v1/oauth2/token' };
const answer: AccessAnswer = {
  route: '/response/v1/clientResponses/:responseGuid/author',
  status: 200,
  ms: 0.8123456,
  applicationId: '0193a2b4-1111-7e8f-9a0b-1c2d3e4f5a6b',
  passkeyId: '0193a2b4-2222-7e8f-9a0b-1c2d3e4f5a6b',
  actor: undefined,
};

const viaPino = createLogger('info', dropped).child({}, { redact: [] });
const pinoLine = (request: AccessRequest) => () =>
  viaPino.info(
    {
      reqId: request.id,
      req: request,
      route: answer.route,
      status: answer.status,
      ms: Math.round(answer.ms * 1000) / 1000,
      applicationId: answer.applicationId,
      passkeyId: answer.passkeyId,
      error: undefined,
    },
    'request completed',
  );
const accessLog = createAccessLog(
  { config: loadConfig({}), logger: createLogger('info', dropped) },
  { msg: 'request completed', sampled: true },
);
const fixedLine = (request: AccessRequest) => () => accessLog.write(request, answer);

const text = { type: 'string' } as const;
const schemaLine = SerializerSelector()({}, {})({
  schema: {
    type: 'object',
    properties: {
      level: { type: 'integer' },
      time: text,
      service: text,
      reqId: text,
      req: {
        type: 'object',
        properties: { method: text, url: text, host: text, remoteAddress: text },
      },
      route: text,
      status: { type: 'integer' },
      ms: { type: 'number' },
      applicationId: text,
      passkeyId: text,
      error: text,
      traceId: text,
      msg: text,
    },
  },
  method: 'GET',
  url: '/',
  httpStatus: '200',
});
// A time formatted once, which favours fast-json-stringify: the other two format theirs per line.
const time = (pino.stdTimeFunctions.isoTime as () => string)().slice(9, -1);
const schemaStringified = (request: AccessRequest) => () =>
  dropped.write(
    `${schemaLine({
      level: 30,
      time,
      service: 'reviews-partner-api',
      reqId: request.id,
      req: {
        method: request.method,
        url: redactUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
      },
      route: answer.route,
      status: answer.status,
      ms: Math.round(answer.ms * 1000) / 1000,
      applicationId: answer.applicationId,
      passkeyId: answer.passkeyId,
    })}\n`,
  );

const variants: [string, () => void][] = [
  ["author, pino's generic path", pinoLine(author)],
  ['author, fast-json-stringify', schemaStringified(author)],
  ['author, fixed-schema line', fixedLine(author)],
  ["token, pino's generic path", pinoLine(token)],
  ['token, fast-json-stringify', schemaStringified(token)],
  ['token, fixed-schema line', fixedLine(token)],
];
const figures = new Map<string, number[]>(variants.map(([name]) => [name, []]));
for (let round = 0; round < rounds; round += 1) {
  for (const [name, run] of variants) {
    // CPU time, not elapsed time: on a shared machine the process waits for a core.
    const start = process.cpuUsage();
    for (let i = 0; i < lines; i += 1) run();
    const spent = process.cpuUsage(start);
    figures.get(name)?.push((spent.user + spent.system) / lines);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
for (const [name, xs] of figures)
  process.stdout.write(
    `${name}: ${median(xs).toFixed(3)} µs per line (median of ${rounds} rounds of ${lines}; ` +
      `${Math.min(...xs).toFixed(3)}–${Math.max(...xs).toFixed(3)})\n`,
  );
