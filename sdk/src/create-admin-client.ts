import createFetchClient from 'openapi-fetch';
import type { components, paths } from './generated/admin-schema.js';
import { type RetryOptions, sendingFetch } from './retrying-fetch.js';
import { ReviewsApiError } from './reviews-api-error.js';

export type AdminSchemas = components['schemas'];
export type { paths as AdminPaths };

export interface AdminClientOptions extends RetryOptions {
  /** Scheme, host and port of the admin listener, e.g. http://127.0.0.1:8081. */
  readonly baseUrl: string;
  /** An admin token (`rpa admin-tokens create`) holding the scopes of the calls made. */
  readonly token: string;
}

/**
 * A typed client of the admin API (paths and bodies from its OpenAPI document). Every create is
 * sent with an Idempotency-Key of its own unless the call gives one, so the retries this client
 * makes after a 429 or 503, and a caller's own retries with the same key, create nothing twice.
 * `call` throws ReviewsApiError for an answer that is not a success; `all` follows a list's
 * `next` links.
 */
export function createAdminClient(options: AdminClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const now = options.now ?? Date.now;
  const send = sendingFetch(options);
  const authorizedFetch = (request: Request) => {
    const authorized = request.clone();
    authorized.headers.set('authorization', `Bearer ${options.token}`);
    if (request.method === 'POST' && !authorized.headers.has('idempotency-key'))
      authorized.headers.set('idempotency-key', crypto.randomUUID());
    return send(authorized);
  };
  const api = createFetchClient<paths>({ baseUrl, fetch: authorizedFetch });

  /** The data of a call's answer, or a ReviewsApiError. */
  async function call<T>(made: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
    const { data, error, response } = await made;
    if (!response.ok) throw ReviewsApiError.fromAnswer(response, error, now());
    return data as T;
  }

  /** Every item of a paged list: `first` fetches the first page, then each `next` link is followed. */
  async function all<T>(
    first: Promise<{ data?: { data: T[]; next: string | null }; error?: unknown; response: Response }>,
  ): Promise<T[]> {
    const items: T[] = [];
    let page = await call(first);
    items.push(...page.data);
    while (page.next !== null) {
      const response = await authorizedFetch(new Request(`${baseUrl}${page.next}`));
      // An error need not be JSON (a proxy's page, an empty 503): its text, as openapi-fetch keeps it.
      if (!response.ok) throw ReviewsApiError.fromAnswer(response, await errorBody(response), now());
      page = (await response.json()) as { data: T[]; next: string | null };
      items.push(...page.data);
    }
    return items;
  }

  return { api, call, all };
}

async function errorBody(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
