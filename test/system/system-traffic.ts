import assert from 'node:assert/strict';
import { LIMITED_ROUTE } from './fault-checks.js';
import type { Answer, Call } from './load.js';
import type { SystemTenant } from './system-tenant.js';

export type PrivacyKind = 'forget' | 'access';

/** A privacy request the API accepted (201 or 202): it must be carried out, whatever happens. */
export interface Accepted {
  readonly id: string;
  readonly kind: PrivacyKind;
  readonly phase: string;
  /** When it was sent. */
  readonly at: number;
  readonly email: string;
  completed: boolean;
}

/**
 * The calls the load makes, as a partner's client would: a token through the token endpoint, and
 * a response made through the Response API whose author it reads.
 */
export async function openTraffic(base: string, tenant: SystemTenant) {
  const basic = Buffer.from(`${tenant.clientId}:${tenant.clientSecret}`).toString('base64');
  const tokenInit: RequestInit = {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  };
  const t = await fetch(`${base}/auth/v1/oauth2/token`, tokenInit);
  const tokenBody = await t.text();
  assert.equal(t.status, 200, tokenBody);
  const bearer = {
    authorization: `Bearer ${(JSON.parse(tokenBody) as { access_token: string }).access_token}`,
  };
  const json = (body: unknown): RequestInit => ({
    method: 'POST',
    headers: { ...bearer, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const r = await fetch(
    `${base}/response/v1/clientResponses/Acme-EN_GB/reviews/demo-acme-en_gb-1?passkey=${tenant.responsePasskey}`,
    json({ data: { type: 'clientResponse', attributes: { department: 'Care', response: 'Thank you!' } } }),
  );
  const responseBody = await r.text();
  assert.equal(r.status, 200, responseBody);
  const responseId = (JSON.parse(responseBody) as { data: { id: string } }).data.id;

  const accepted: Accepted[] = [];
  const author = (passkey: string, route: string): Call => ({
    route,
    path: `/response/v1/clientResponses/${responseId}/author?passkey=${passkey}`,
    init: { headers: bearer },
  });
  const privacy = (kind: PrivacyKind, email: string): Call => ({
    route: kind,
    path: `/privacy/v1/${kind}Requests?passkey=${tenant.privacyPasskey}`,
    init: json({ emailAddress: email }),
    onAnswer: (a: Answer) => {
      if (a.status !== 201 && a.status !== 202) return;
      const id = (JSON.parse(a.body) as { id: string }).id;
      accepted.push({ id, kind, phase: a.phase, at: a.at, email, completed: false });
    },
  });
  let unique = 0;
  const onReview = (i: number) =>
    `/response/v1/clientResponses/Acme-EN_GB/reviews/demo-acme-en_gb-${1 + (i % 3)}?passkey=${tenant.responsePasskey}`;
  const slots = {
    // A text of its own each time: an identical response to the same review is refused (400).
    create: (): Call => {
      const n = ++unique;
      const attributes = { department: 'Care', response: `Thanks! (${n})` };
      return {
        route: 'create',
        path: onReview(n),
        init: json({ data: { type: 'clientResponse', attributes } }),
      };
    },
    list: (): Call => ({ route: 'list', path: onReview(++unique), init: { headers: bearer } }),
    token: (): Call => ({ route: 'token', path: '/auth/v1/oauth2/token', init: tokenInit }),
    author: () => author(tenant.responsePasskey, 'author'),
    // Each for a person of its own, so that no request waits for another (409).
    forget: () => privacy('forget', `load-forget-${++unique}@example.com`),
    access: () => privacy('access', `load-access-${++unique}@example.com`),
  };
  return {
    accepted,
    /** The main load's mix: 2 tokens, 4 author reads, a forget and an access request in 8 calls. */
    mixed(i: number): Call {
      const kinds = ['token', 'token', 'author', 'author', 'author', 'forget', 'access', 'author'] as const;
      // Consecutive calls go to different instances, so every route reaches both.
      return slots[kinds[Math.floor(i / 2) % kinds.length] ?? 'author']();
    },
    /** A fleet's mix: a token, 3 author reads, a response created, 2 lists and a forget request in 8 calls. */
    fleet(i: number): Call {
      const kinds = ['token', 'author', 'create', 'author', 'list', 'author', 'forget', 'list'] as const;
      return slots[kinds[i % kinds.length] ?? 'author']();
    },
    /** Calls that need the database and the limiter, for a spike during an outage. */
    spike(i: number): Call {
      return [slots.author, slots.forget, slots.access][i % 3]?.() ?? slots.author();
    },
    limited: () => author(tenant.limited.passkey, LIMITED_ROUTE),
    token: slots.token,
    forget: (email: string) => privacy('forget', email),
    poll: (r: Accepted): Call => ({
      route: `poll ${r.kind}`,
      path: `/privacy/v1/${r.kind}Requests/${r.id}?passkey=${tenant.privacyPasskey}`,
      init: { headers: bearer },
    }),
  };
}

export type Traffic = Awaited<ReturnType<typeof openTraffic>>;
