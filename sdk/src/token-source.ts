import { ReviewsApiError, readBody } from './reviews-api-error.js';

export interface TokenSourceOptions {
  readonly tokenUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly fetch: (request: Request) => Promise<Response>;
  readonly now: () => number;
}

/** RFC 6749 §2.3.1: the id and secret are form-encoded before they go into HTTP Basic. */
function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

/**
 * The access token of one application, obtained with client credentials (RFC 6749 §4.4) and
 * kept until shortly before it expires: renewed when less than 10% of its lifetime (at most 30 s)
 * is left, so a call never leaves with a token about to lapse. However many calls want a token at
 * once, one request is in flight.
 */
export function createTokenSource(options: TokenSourceOptions) {
  let current: { token: string; renewAt: number } | null = null;
  let pending: Promise<string> | null = null;
  // Form-encoded text is ASCII, which btoa takes as it is (in browsers too).
  const basic = `Basic ${btoa(`${formEncode(options.clientId)}:${formEncode(options.clientSecret)}`)}`;

  async function obtain(): Promise<string> {
    const response = await options.fetch(
      new Request(options.tokenUrl, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      }),
    );
    const body = await readBody(response);
    if (!response.ok) throw ReviewsApiError.fromAnswer(response, body, options.now());
    const { access_token: token, expires_in: lifetime } = body as {
      access_token: string;
      expires_in: number;
    };
    const margin = Math.min(30, lifetime / 10) * 1000;
    current = { token, renewAt: options.now() + lifetime * 1000 - margin };
    return token;
  }

  return {
    /** A token that is valid for a while yet. */
    get(): Promise<string> {
      if (current && options.now() < current.renewAt) return Promise.resolve(current.token);
      pending ??= obtain().finally(() => {
        pending = null;
      });
      return pending;
    },
    /** Forgets a token the API refused (revoked, or its signing key retired), if still current. */
    drop(token: string): void {
      if (current?.token === token) current = null;
    },
  };
}
