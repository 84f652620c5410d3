import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { parseRetryAfter } from '../domain/retry-after.js';
import { ADMIN_PREFIX, buildAdminServer } from '../http/admin/build-admin-server.js';
import { createRetryBackoff } from '../services/health/create-retry-backoff.js';
import { CliError } from './cli-error.js';
import type { CliIo } from './cli-io.js';
import { withRuntime } from './with-runtime.js';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** The admin API answered with a problem: the command's one-line failure, and the status. */
export class AdminApiRefusal extends CliError {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** No answer came (the connection failed, or the wait ran out): what was sent may have been done. */
export class AdminApiNoAnswer extends CliError {}

/** How long a call waits for its answer over HTTP, unless it waits as long as it takes. */
const ANSWER_TIMEOUT_MS = 30_000;

interface CallOptions {
  /**
   * No time limit of the CLI's: an apply of a large file takes longer than a read, and giving up
   * on it would not stop the server committing it.
   */
  readonly untilAnswered?: boolean;
}

/** The admin API as commands use it, whichever way it is reached. */
export interface AdminApi {
  /**
   * One call; a problem answer becomes the command's one-line failure. A POST here is an action
   * (revoke, retire, enable), which the admin API carries out again if sent again.
   */
  call<T>(method: Method, path: string, body?: unknown, options?: CallOptions): Promise<T>;
  /**
   * A create: a POST to a route that takes Idempotency-Key, sent with a key of its own, so that
   * sent again after a lost answer it creates nothing twice (admin-create.ts).
   */
  create<T>(path: string, body?: unknown): Promise<T>;
  /** Every item of a paged list, following its `next` links. */
  all<T>(path: string): Promise<T[]>;
}

interface Answer {
  readonly status: number;
  readonly body: unknown;
}

type Send = (
  method: Method,
  path: string,
  body: unknown,
  idempotencyKey: string | undefined,
  options?: CallOptions,
) => Promise<Answer>;

/**
 * Runs an administrative command through the admin API: over HTTP when RPA_ADMIN_URL and
 * RPA_ADMIN_TOKEN are set, so an operator's laptop or a CI job needs no database credentials;
 * otherwise inside this process against the configured database, as its operator. Either way the
 * same routes decide, so output and exit codes are the same.
 */
export async function withAdminApi<T>(io: CliIo, work: (api: AdminApi) => Promise<T>): Promise<T> {
  const url = io.env.RPA_ADMIN_URL?.trim();
  if (url) {
    const token = io.env.RPA_ADMIN_TOKEN?.trim();
    if (!token)
      throw new CliError('RPA_ADMIN_URL is set but RPA_ADMIN_TOKEN is not: give the admin token too');
    return work(adminApi(overHttp(url, token)));
  }
  return withRuntime(io, async (runtime) => {
    const app = await buildAdminServer(runtime.deps, { operator: runtime.deps.actor });
    try {
      return await work(adminApi(inProcess(app)));
    } finally {
      await app.close();
    }
  });
}

function adminApi(send: Send): AdminApi {
  const sent = async <T>(
    method: Method,
    path: string,
    body?: unknown,
    key?: string,
    options?: CallOptions,
  ): Promise<T> => {
    const answer = await send(method, `${ADMIN_PREFIX}${path}`, body, key, options);
    if (answer.status >= 400) throw new AdminApiRefusal(problemMessage(answer), answer.status);
    return answer.body as T;
  };
  return {
    call: (method, path, body, options) => sent(method, path, body, undefined, options),
    create: (path, body) => sent('POST', path, body, randomUUID()),
    async all<T>(path: string) {
      const items: T[] = [];
      let next: string | null = path;
      while (next !== null) {
        const page: { data: T[]; next: string | null } = await sent('GET', next);
        items.push(...page.data);
        next = page.next === null ? null : page.next.slice(ADMIN_PREFIX.length);
      }
      return items;
    },
  };
}

/** A query string of the values given. */
export function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) q.set(name, String(value));
  const text = q.toString();
  return text ? `?${text}` : '';
}

function problemMessage(answer: Answer): string {
  const problem = answer.body as { detail?: unknown; title?: unknown } | null;
  if (problem && typeof problem.detail === 'string') return problem.detail;
  return `the admin API answered ${answer.status}`;
}

function inProcess(app: FastifyInstance): Send {
  return async (method, url, body, key) => {
    const response = await app.inject({
      method,
      url,
      headers: key ? { 'idempotency-key': key } : {},
      ...(body === undefined ? {} : { payload: body as object }),
    });
    return { status: response.statusCode, body: response.body ? response.json() : null };
  };
}

/** Tries after the first: a server that stays away fails the command within seconds. */
const RETRIES = 2;
/** The longest pause before a try, whatever Retry-After asks: someone, or a job, waits on the command. */
const MAX_PAUSE_MS = 10_000;

/**
 * Calls over HTTP. A request is sent again, at most RETRIES times and waiting longer each time,
 * when nothing was done (a 503, after the Retry-After it gives), and when the connection failed
 * before an answer if sending it again is safe: a read, or a create with its Idempotency-Key,
 * which the admin API answers with the first answer instead of creating again. An action (revoke,
 * retire, enable) may have been carried out with its answer lost, and would be carried out again.
 */
function overHttp(baseUrl: string, token: string): Send {
  const base = baseUrl.replace(/\/+$/, '');
  return async (method, path, body, key, options) => {
    const repeatable = method === 'GET' || key !== undefined;
    const backoff = createRetryBackoff({ firstMs: 1000, maxMs: MAX_PAUSE_MS });
    for (let attempt = 0; ; attempt++) {
      const retry = attempt < RETRIES;
      let response: Response;
      try {
        response = await fetch(`${base}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...(key ? { 'idempotency-key': key } : {}),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          ...(options?.untilAnswered ? {} : { signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS) }),
        });
      } catch (err) {
        if (retry && repeatable) {
          await pause(backoff.next());
          continue;
        }
        throw new AdminApiNoAnswer(`RPA_ADMIN_URL: cannot reach ${base} (${reasonOf(err)})`);
      }
      if (response.status === 503 && retry) {
        await response.body?.cancel();
        const asked = parseRetryAfter(response.headers.get('retry-after'), Date.now());
        const ownPause = backoff.next();
        await pause(asked ?? ownPause);
        continue;
      }
      const text = await response.text();
      return { status: response.status, body: text ? parseJson(text, response.status) : null };
    }
  };
}

function parseJson(text: string, status: number): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new CliError(`RPA_ADMIN_URL: the answer (${status}) is not JSON: is it the admin listener?`);
  }
}

function reasonOf(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  return err instanceof Error ? err.message : String(err);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, MAX_PAUSE_MS)));
