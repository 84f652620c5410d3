import type { AddressInfo } from 'node:net';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createTestApp, type TestApp } from './test-runtime.js';

/**
 * Some answers never reach app.inject(): those of Node's HTTP parser (400, 431), timeouts, and
 * whatever happens to the connection afterwards. These helpers talk HTTP/1.1 over a real socket.
 */
export interface ListeningApp extends TestApp {
  readonly port: number;
}

export async function listenTestApp(env: Record<string, string> = {}): Promise<ListeningApp> {
  const t = await createTestApp(env);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { ...t, port: portOf(t.app) };
}

export function portOf(app: FastifyInstance): number {
  return (app.server.address() as AddressInfo).port;
}

export interface RawResponse {
  /** 0 when the server closed the connection without answering. */
  readonly status: number;
  /** Lower-case names; repeated fields joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Everything the server sent, status line included. */
  readonly text: string;
  /** Whether the server ended the connection (only observed with `awaitClose`). */
  readonly closedByServer: boolean;
}

export interface RawOptions {
  /** After the answer, wait for the server to end the connection (up to `limitMs`). */
  awaitClose?: boolean;
  /** Upper bound of the whole exchange, so a test fails instead of hanging. */
  limitMs?: number;
  /** Called once connected, for senders that trickle bytes; returns a cleanup. */
  trickle?: (socket: net.Socket) => () => void;
}

function parse(text: string): { status: number; headers: Record<string, string>; body: string } | null {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return null;
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  const body = text.slice(end + 4);
  const length = headers['content-length'];
  if (length !== undefined && Buffer.byteLength(body) < Number(length)) return null;
  return { status, headers, body };
}

/** Sends `data` as is and reads one answer. */
export function rawRequest(port: number, data: string, options: RawOptions = {}): Promise<RawResponse> {
  const limitMs = options.limitMs ?? 5000;
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let done = false;
    let stopTrickle = () => {};
    const finish = (closedByServer: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(limit);
      stopTrickle();
      socket.destroy();
      const parsed = parse(text);
      resolve({
        status: parsed?.status ?? 0,
        headers: parsed?.headers ?? {},
        body: parsed?.body ?? '',
        text,
        closedByServer,
      });
    };
    const limit = setTimeout(() => finish(false), limitMs);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (!options.awaitClose && parse(text)) finish(false);
    });
    socket.on('error', () => {});
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('connect', () => {
      socket.write(data);
      if (options.trickle) stopTrickle = options.trickle(socket);
    });
  });
}
