import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { coalesceAnswers } from '../../src/http/coalesce-answers.js';

/**
 * What the server does, in order: a route answering ("answered a"), an answer reaching its socket
 * ("written a"), a microtask queued right after answering ("after a"). Raw sockets, so that two
 * requests written back to back arrive in one turn of the server's event loop (on loopback a write
 * is in the peer's receive queue when it returns).
 */
describe('answers written per turn of the event loop', () => {
  let app: FastifyInstance;
  let port: number;
  const events: string[] = [];

  before(async () => {
    app = Fastify();
    coalesceAnswers(app);
    app.addHook('onRequest', (request, reply, done) => {
      const name = String((request.query as { n?: string }).n);
      const end = reply.raw.end.bind(reply.raw) as (...args: unknown[]) => unknown;
      reply.raw.end = ((...args: unknown[]) => {
        events.push(`written ${name}`);
        return end(...args);
      }) as typeof reply.raw.end;
      done();
    });
    const answer = (name: string, send: () => void) => {
      events.push(`answered ${name}`);
      send();
      queueMicrotask(() => events.push(`after ${name}`));
    };
    app.get('/now', (request, reply) => {
      const name = String((request.query as { n?: string }).n);
      answer(name, () => reply.send({ name }));
    });
    app.get('/later', (request, reply) => {
      const name = String((request.query as { n?: string }).n);
      // Completed in a later turn, as an answer waiting on a read is.
      setImmediate(() => setImmediate(() => answer(name, () => reply.send({ name }))));
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  after(() => app.close());

  /** Connections the server has accepted, so that what is written to them is read in one turn. */
  async function sockets(n: number): Promise<Socket[]> {
    let accepted = 0;
    const allAccepted = new Promise<void>((resolve) => {
      const count = () => {
        if (++accepted < n) return;
        app.server.off('connection', count);
        resolve();
      };
      app.server.on('connection', count);
    });
    const socks = await Promise.all(
      Array.from(
        { length: n },
        () =>
          new Promise<Socket>((resolve, reject) => {
            const socket = connect(port, '127.0.0.1', () => resolve(socket));
            socket.on('error', reject);
          }),
      ),
    );
    await allAccepted;
    return socks;
  }

  /** Writes one request per socket back to back and waits for every answer's status line. */
  async function exchange(paths: string[]): Promise<string[]> {
    const socks = await sockets(paths.length);
    const answers = socks.map(
      (socket) =>
        new Promise<string>((resolve) => {
          let text = '';
          socket.on('data', (chunk) => {
            text += chunk.toString('latin1');
            if (text.includes('\r\n\r\n') && text.endsWith('}')) resolve(text.split('\r\n')[0] ?? '');
          });
        }),
    );
    events.length = 0;
    paths.forEach((path, i) => {
      socks[i]?.write(`GET ${path} HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n`);
    });
    const lines = await Promise.all(answers);
    for (const socket of socks) socket.destroy();
    return lines;
  }

  it('writes the answers completed in the turn their requests arrived in together, at its end', async () => {
    const lines = await exchange(['/now?n=a', '/now?n=b', '/now?n=c']);
    assert.deepEqual(lines, ['HTTP/1.1 200 OK', 'HTTP/1.1 200 OK', 'HTTP/1.1 200 OK']);
    assert.deepEqual(events, [
      'answered a',
      'after a',
      'answered b',
      'after b',
      'answered c',
      'after c',
      'written a',
      'written b',
      'written c',
    ]);
  });

  it('writes an answer completed in a later turn at once', async () => {
    const lines = await exchange(['/later?n=x']);
    assert.deepEqual(lines, ['HTTP/1.1 200 OK']);
    assert.deepEqual(events, ['answered x', 'written x', 'after x']);
  });

  it('answers completed in a later turn do not wait for those of the turn they are in', async () => {
    const lines = await exchange(['/later?n=x', '/now?n=a']);
    assert.deepEqual(lines, ['HTTP/1.1 200 OK', 'HTTP/1.1 200 OK']);
    // a arrives with x and waits for the end of that turn; x, answered two turns later, at once.
    assert.deepEqual(events, ['answered a', 'after a', 'written a', 'answered x', 'written x', 'after x']);
  });
});
