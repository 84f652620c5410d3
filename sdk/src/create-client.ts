import createFetchClient from 'openapi-fetch';
import type { components, paths } from './generated/schema.js';
import { type RetryOptions, sendingFetch } from './retrying-fetch.js';
import { ReviewsApiError } from './reviews-api-error.js';
import { createTokenSource } from './token-source.js';

type Schemas = components['schemas'];
export type ClientResponseDocument = Schemas['ClientResponseDocument'];
export type ClientResponseCollection = Schemas['ClientResponseCollection'];
export type AuthorDocument = Schemas['AuthorDocument'];
export type ReviewDocument = Schemas['ReviewDocument'];
export type ResponseCounts = Schemas['ResponseCounts'];
export type PrivacyRequest = Schemas['PrivacyRequest'];
export type PrivacyRequestList = Schemas['PrivacyRequestList'];
export type AccessExport = Schemas['AccessExport'];
/** The body of a webhook the server sends (verify it with a Standard Webhooks library first). */
export type PrivacyRequestEvent = Schemas['PrivacyRequestEvent'];

type OnReview = paths['/response/v1/clientResponses/{client}/reviews/{reviewId}'];
type OnResponse = paths['/response/v1/clientResponses/{responseGuid}'];
/** What a new response says: department, response and optionally responseBy. */
export type NewResponse = NonNullable<
  OnReview['post']['requestBody']['content']['application/json']['attributes']
>;
/** Attributes to change; the others stay. */
export type ResponseChanges = NonNullable<
  OnResponse['patch']['requestBody']['content']['application/json']['attributes']
>;
/** The end user a privacy request is about: at least one identifier, optionally clientNames. */
export type PrivacySubject =
  paths['/privacy/v1/forgetRequests']['post']['requestBody']['content']['application/json'];
/** Which page of a review's responses: `page[size]`, and `page[after]` from `links.next` of the one before. */
export type ResponsePage = Omit<NonNullable<OnReview['get']['parameters']['query']>, 'passkey'>;
/** Filters of a list of privacy requests (status, clientName, one identifier, limit, cursor, ...). */
export type PrivacyListFilters = Omit<
  NonNullable<paths['/privacy/v1/forgetRequests']['get']['parameters']['query']>,
  'passkey'
>;

/** Options of a create call. */
export interface CreateOptions {
  /**
   * The Idempotency-Key to send (default: a new UUID per call). Keep it with the work item and pass
   * it again when retrying after a timeout or a lost connection: the server then answers the first
   * result instead of creating twice.
   */
  readonly idempotencyKey?: string;
}

export interface ClientOptions extends RetryOptions {
  /** Scheme and host of the API, e.g. https://api.example.com or https://stg.api.example.com. */
  readonly baseUrl: string;
  /** The application's key and secret (client credentials). */
  readonly clientId: string;
  readonly clientSecret: string;
  /** The application's passkey for each API it calls. */
  readonly passkeys: { readonly response?: string; readonly privacy?: string };
}

/**
 * A client of the reviews partner API. It obtains and renews the access token itself (one token
 * request in flight at a time), adds the passkey of the API called, waits and retries when the
 * API is over a limit or briefly unavailable, and throws ReviewsApiError for any other answer
 * that is not a success.
 */
export function createClient(options: ClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const now = options.now ?? Date.now;
  const send = sendingFetch(options);
  const tokens = createTokenSource({
    tokenUrl: `${baseUrl}/auth/v1/oauth2/token`,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    fetch: send,
    now,
  });

  const withBearer = (request: Request, token: string) => {
    const authorized = request.clone();
    authorized.headers.set('authorization', `Bearer ${token}`);
    return authorized;
  };
  /** A refused token (revoked, its key retired) is renewed once, and the call made again. */
  const authorizedFetch = async (request: Request): Promise<Response> => {
    const token = await tokens.get();
    const answer = await send(withBearer(request, token));
    if (answer.status !== 401) return answer;
    tokens.drop(token);
    await answer.body?.cancel();
    return send(withBearer(request, await tokens.get()));
  };
  const api = createFetchClient<paths>({ baseUrl, fetch: authorizedFetch });

  const passkey = (name: 'response' | 'privacy') => {
    const value = options.passkeys[name];
    if (!value) throw new TypeError(`no ${name} passkey: pass passkeys.${name} to createClient`);
    return value;
  };
  /** Makes the call (a missing passkey is a rejection too) and returns its document, or throws. */
  async function result<T>(
    call: () => Promise<{ data?: T; error?: unknown; response: Response }>,
  ): Promise<T> {
    const { data, error, response } = await call();
    if (!response.ok) throw ReviewsApiError.fromAnswer(response, error, now());
    return data as T;
  }
  /**
   * An Idempotency-Key per create: this client's own retries (after a 429 or 503, or a renewed
   * token) send the same request, so the server creates once and answers the first result again.
   */
  const onceKey = (chosen?: CreateOptions) => ({
    'idempotency-key': chosen?.idempotencyKey ?? crypto.randomUUID(),
  });
  const R = '/response/v1/clientResponses';
  const onReview = (client: string, reviewId: string) => ({
    path: { client, reviewId },
    query: { passkey: passkey('response') },
  });
  const onResponse = (responseGuid: string) => ({
    path: { responseGuid },
    query: { passkey: passkey('response') },
  });
  const privacy = (kind: 'forget' | 'access') => {
    const path = kind === 'forget' ? '/privacy/v1/forgetRequests' : '/privacy/v1/accessRequests';
    return {
      file: (subject: PrivacySubject, chosen?: CreateOptions) =>
        result<PrivacyRequest>(() =>
          api.POST(path, {
            params: { query: { passkey: passkey('privacy') }, header: onceKey(chosen) },
            body: subject,
          }),
        ),
      get: (id: string) =>
        result<PrivacyRequest>(() =>
          api.GET(`${path}/{id}`, { params: { path: { id }, query: { passkey: passkey('privacy') } } }),
        ),
      list: (filters: PrivacyListFilters = {}) =>
        result<PrivacyRequestList>(() =>
          api.GET(path, { params: { query: { ...filters, passkey: passkey('privacy') } } }),
        ),
    };
  };
  const forget = privacy('forget');
  const access = privacy('access');

  return {
    /** The current access token (obtained or renewed if needed). */
    token: () => tokens.get(),

    responses: {
      list: (client: string, reviewId: string, page: ResponsePage = {}) =>
        result<ClientResponseCollection>(() =>
          api.GET(`${R}/{client}/reviews/{reviewId}`, {
            params: { path: { client, reviewId }, query: { ...page, passkey: passkey('response') } },
          }),
        ),
      create: (client: string, reviewId: string, attributes: NewResponse, chosen?: CreateOptions) =>
        result<ClientResponseDocument>(() =>
          api.POST(`${R}/{client}/reviews/{reviewId}`, {
            params: { ...onReview(client, reviewId), header: onceKey(chosen) },
            body: { data: { type: 'clientResponse', attributes } },
          }),
        ),
      count: (reviewIds: string[]) =>
        result<ResponseCounts>(() =>
          api.POST(`${R}/reviews/-/responses`, {
            params: { query: { passkey: passkey('response') } },
            body: { reviewIds },
          }),
        ),
      get: (guid: string) =>
        result<ClientResponseDocument>(() => api.GET(`${R}/{responseGuid}`, { params: onResponse(guid) })),
      update: (guid: string, changes: ResponseChanges) =>
        result<ClientResponseDocument>(() =>
          api.PATCH(`${R}/{responseGuid}`, {
            params: onResponse(guid),
            body: { data: { type: 'clientResponse', id: guid, attributes: changes } },
          }),
        ),
      /** Resolves also when there was nothing to delete. */
      delete: async (guid: string): Promise<void> => {
        await result(() => api.DELETE(`${R}/{responseGuid}`, { params: onResponse(guid) }));
      },
      getAuthor: (guid: string) =>
        result<AuthorDocument>(() => api.GET(`${R}/{responseGuid}/author`, { params: onResponse(guid) })),
      getReview: (guid: string) =>
        result<ReviewDocument>(() => api.GET(`${R}/{responseGuid}/review`, { params: onResponse(guid) })),
    },

    privacy: {
      /** Files a forget request; the answer is PENDING until the server has erased the person. */
      forget: forget.file,
      getForget: forget.get,
      listForget: forget.list,
      /** Files an access request; its export can be downloaded once it is COMPLETED. */
      access: access.file,
      getAccess: access.get,
      listAccess: access.list,
      /** The export as one JSON document. */
      downloadExport: (id: string) =>
        result<AccessExport>(async () => {
          const answer = await api.GET('/privacy/v1/accessRequests/{id}/export', {
            params: { path: { id }, query: { passkey: passkey('privacy'), format: 'json' } },
          });
          return answer as { data?: AccessExport; error?: unknown; response: Response };
        }),
      /** The export as a ZIP archive: a folder per client instance, JSON and CSV files. */
      downloadExportArchive: (id: string) =>
        result<ArrayBuffer>(async () => {
          const answer = await api.GET('/privacy/v1/accessRequests/{id}/export', {
            params: { path: { id }, query: { passkey: passkey('privacy'), format: 'zip' } },
            parseAs: 'arrayBuffer',
          });
          return answer as { data?: ArrayBuffer; error?: unknown; response: Response };
        }),
    },
  };
}

export type ReviewsApiClient = ReturnType<typeof createClient>;
