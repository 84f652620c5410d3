import { type LookupAddress, type LookupAllOptions, type LookupOptions, lookup } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import {
  isPublicAddress,
  mayUsePrivateAddresses,
  urlHost,
  type WebhookUrlPolicy,
} from '../../domain/webhook-url.js';
import { VERSION } from '../../version.js';

export type PostOutcome =
  | { readonly answered: true; readonly status: number; readonly retryAfter: string | undefined }
  | { readonly answered: false; readonly error: string };

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

const NOT_ALLOWED = 'address not allowed';

/**
 * Resolves like dns.lookup, but fails when any address of the name is not public: the address
 * checked is the address connected to, so a name that changes its answer between the check and
 * the connection (DNS rebinding) gains nothing.
 */
function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  const all: LookupAllOptions = { ...options, all: true };
  lookup(hostname, all, (err, addresses) => {
    if (err) return callback(err, []);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused || addresses.length === 0) {
      const e: NodeJS.ErrnoException = new Error(`${hostname} resolves to a non-public address`);
      e.code = NOT_ALLOWED;
      return callback(e, []);
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0] as LookupAddress;
    callback(null, first.address, first.family);
  });
}

/**
 * One attempt: POSTs the body and settles with the answer's status as soon as its headers are in,
 * or with why there was none. Redirects are not followed (a 3xx is a failed attempt), a fresh
 * connection is used each time, and the whole attempt is bounded by `timeoutMs`.
 */
export function postWebhook(
  url: URL,
  message: { readonly headers: Readonly<Record<string, string>>; readonly body: string },
  options: { readonly timeoutMs: number; readonly policy: WebhookUrlPolicy },
): Promise<PostOutcome> {
  const host = urlHost(url);
  const trusted = mayUsePrivateAddresses(host, options.policy);
  if (isIP(host) !== 0 && !trusted && !isPublicAddress(host))
    return Promise.resolve({ answered: false, error: NOT_ALLOWED });
  if (url.protocol === 'http:' && !options.policy.allowHttpHosts.includes(host))
    return Promise.resolve({ answered: false, error: 'http not allowed' });

  return new Promise((resolve) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, {
      method: 'POST',
      agent: false,
      headers: {
        ...message.headers,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(message.body),
        'user-agent': `reviews-partner-api/${VERSION} (webhooks)`,
      },
      ...(trusted ? {} : { lookup: publicOnlyLookup }),
    });
    let settled = false;
    const settle = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const timer = setTimeout(() => {
      settle({ answered: false, error: 'timeout' });
      req.destroy();
    }, options.timeoutMs);
    req.on('response', (res) => {
      const retryAfter = res.headers['retry-after'];
      settle({ answered: true, status: res.statusCode ?? 0, retryAfter });
      // The body is not read: drained and dropped, never kept.
      res.resume();
      res.on('error', () => {});
      setTimeout(() => res.destroy(), options.timeoutMs).unref();
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      settle({ answered: false, error: (err.code ?? err.message).slice(0, 200) });
    });
    req.end(message.body);
  });
}
