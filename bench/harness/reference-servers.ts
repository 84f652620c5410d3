/**
 * The references the API is measured against, built without listening so the standalone scripts
 * (bench/ceiling-server.ts, bench/framework-floor-server.ts) and bench/per-request.ts (in its own
 * process) serve exactly the same thing.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';

/** The answer both references give to every request: the benchmarked endpoint's body and type. */
export interface ReferenceAnswer {
  readonly body: Buffer;
  readonly contentType: string;
}

/**
 * The ceiling: a bare node:http server answering every request with the same bytes. With `work`,
 * it runs that first for each request (bench/work-curve.ts).
 */
export function ceilingServer(
  { body, contentType }: ReferenceAnswer,
  work?: () => void,
  options: { answerAtTurnEnd?: () => boolean } = {},
): Server {
  const answer = (res: ServerResponse) => {
    res.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
    res.end(body);
  };
  // For bench/work-curve.ts: the answers of a turn written together once it ends, as the service
  // does. The ceiling itself answers at once, with nothing more per request than before.
  let waiting: ServerResponse[] = [];
  const endTurn = () => {
    const ready = waiting;
    waiting = [];
    for (const res of ready) answer(res);
  };
  const server = createServer((req, res) => {
    // Drain any request body so keep-alive connections stay usable.
    req.resume();
    req.on('end', () => {
      work?.();
      if (!options.answerAtTurnEnd?.()) return answer(res);
      if (waiting.length === 0) setImmediate(endTurn);
      waiting.push(res);
    });
  });
  server.keepAliveTimeout = 65_000;
  return server;
}

/**
 * The framework's floor: bare Fastify 5 (no logger, no hooks, no schema) with one route that
 * answers the same bytes. A POST route takes a form body, parsed as little as a form can be
 * (URLSearchParams), since Fastify itself refuses a content type it has no parser for.
 */
export function frameworkFloor(
  { body, contentType }: ReferenceAnswer,
  route: string,
  method: 'GET' | 'POST' = 'GET',
): FastifyInstance {
  const app = Fastify({ logger: false, keepAliveTimeout: 65_000 });
  if (method === 'POST') {
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, form, done) => {
        done(null, Object.fromEntries(new URLSearchParams(form as string)));
      },
    );
  }
  app.route({
    method,
    url: route,
    handler: (_request, reply) => {
      reply.header('content-type', contentType).send(body);
    },
  });
  return app;
}

/** The environment that names `answer` to a reference script, as answerFromEnv reads it. */
export function answerEnv(answer: { body: string; contentType: string }): Record<string, string> {
  return { BODY: answer.body, CONTENT_TYPE: answer.contentType };
}

/** The answer named by the environment of a reference script: BODY and CONTENT_TYPE. */
export function answerFromEnv(): ReferenceAnswer {
  return {
    body: Buffer.from(process.env.BODY ?? '{}', 'utf8'),
    contentType: process.env.CONTENT_TYPE ?? 'application/json; charset=utf-8',
  };
}
