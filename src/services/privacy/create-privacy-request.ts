import type { Environment } from '../../domain/environment.js';
import type { Identifiers } from '../../domain/identifiers.js';
import { privacyDueAt } from '../../domain/privacy-due-at.js';
import type { PrivacyRequest, PrivacyRequestType } from '../../domain/privacy-request.js';
import {
  pendingKeys,
  privacySubject,
  type SubjectIdentifier,
  type SubjectKey,
} from '../../domain/privacy-subject.js';
import { uuidV7 } from '../../domain/uuid-v7.js';
import { AppError } from '../../errors.js';
import { isUniqueViolation } from '../../store/driver-errors.js';
import { insertPrivacyRequest } from '../../store/repositories/privacy-request-inserts.js';
import { findLinkedIdentifiers } from '../../store/repositories/privacy-subjects.js';
import { afterCommit } from '../after-commit.js';
import type { ServiceDeps } from '../deps.js';
import { type IdempotentRequest, runIdempotently } from '../idempotency/run-idempotently.js';
import { getPrivacyRequest } from './get-privacy-request.js';
import { creationEvent, creationWebhook } from './privacy-request-events.js';

export interface CreatePrivacyRequestInput {
  readonly type: PrivacyRequestType;
  readonly environment: Environment;
  readonly applicationId: string;
  /** Defaults to every client instance the application may use (docs/interface.md §2.2). */
  readonly clientNames?: readonly string[];
  readonly identifiers: Identifiers;
  /** Scheme and host the request is filed on, for the links of its events (null: not known). */
  readonly baseUrl?: string | null;
  /**
   * The W3C traceparent of the traced call filing it (docs/tracing.md): the worker's span of the
   * request continues that trace. Null or absent when the call is not traced.
   */
  readonly traceParent?: string | null;
}

/**
 * Files a request at most once per Idempotency-Key of the application (services/idempotency): a
 * retry gets the request the first one filed, as it is now, and files nothing. What is kept for
 * the key is the request's id only, never an identifier.
 */
export async function createPrivacyRequestOnce(
  deps: ServiceDeps,
  input: CreatePrivacyRequestInput,
  idempotency: IdempotentRequest,
): Promise<{ readonly request: PrivacyRequest; readonly replayed: boolean }> {
  const { value, replayed } = await runIdempotently(
    deps,
    idempotency,
    (d) => createPrivacyRequest(d, input),
    {
      keep: (request) => ({ id: request.id }),
      answer: (kept) => getPrivacyRequest(deps, { ...input, id: kept.id }),
    },
  );
  return { request: value, replayed };
}

/**
 * Files a forget or access request. The pending rule (docs/interface.md §4.3) is a unique key in the database:
 * the request, its identifier hashes and one pending key per (client, identifier), for the named
 * identifiers and those linked to them through stored reviews, are written in
 * one statement (PostgreSQL) or one savepoint of a group commit (SQLite), so of any number of concurrent
 * requests for the same end user, on any number of instances, exactly one commits and the others
 * get 409. The request is answered once its commit is on disk.
 */
export async function createPrivacyRequest(
  deps: ServiceDeps,
  input: CreatePrivacyRequestInput,
): Promise<PrivacyRequest> {
  const subject = privacySubject(deps.identifierKey, input.identifiers);
  const clients = await clientsToActFor(deps, input);
  // Same end user (docs/design.md, Privacy API): identifiers stored on one review with a named one.
  const linked = await findLinkedIdentifiers(deps.store.db, {
    clientIds: clients.map((c) => c.id),
    identifiers: subject,
  });
  const request = pendingRequest(deps.clock(), input, clients, subject);
  const deliveries = await insertOrRefuse(deps, {
    request,
    baseUrl: input.baseUrl ?? null,
    traceParent: input.traceParent ?? null,
    clients,
    subject,
    linked,
  });
  // Once committed: a worker woken before would not find the request yet.
  await afterCommit(deps, async () => {
    deps.metrics.privacyRequestCreated(input.type);
    deps.privacyWork?.notify();
    // Only when there is something to send: at hundreds of requests a second, a wake-up each would
    // cost a claim query each.
    if (deliveries > 0) deps.webhookWork?.notify();
    deps.logger.info(
      { privacyRequestId: request.id, requestType: input.type, clients: clients.length },
      'privacy request accepted',
    );
  });
  return request;
}

/** The client instances named (by default every one granted), each granted to the application. */
async function clientsToActFor(
  deps: ServiceDeps,
  input: CreatePrivacyRequestInput,
): Promise<{ id: string; name: string }[]> {
  // From the tenancy cache, like the Response API's grant check (require-granted-client.ts).
  const granted = (await deps.cache.grants.get(input.applicationId)).filter(
    (c) => c.environment === input.environment,
  );
  const wanted = input.clientNames ? [...new Set(input.clientNames)] : granted.map((c) => c.name);
  const notGranted = wanted.filter((name) => !granted.some((c) => c.name === name));
  if (notGranted.length > 0) {
    throw new AppError('UNKNOWN_CLIENT_NAME', {
      field: 'clientNames',
      detail: `this application may not act for ${notGranted.map((n) => `"${n}"`).join(', ')}`,
      source: { pointer: '/clientNames' },
    });
  }
  if (wanted.length === 0) {
    throw new AppError('UNKNOWN_CLIENT_NAME', {
      field: 'clientNames',
      detail: 'this application has no client instances to act for',
      source: { pointer: '/clientNames' },
    });
  }
  return granted.filter((c) => wanted.includes(c.name)).map((c) => ({ id: c.id, name: c.name }));
}

function pendingRequest(
  now: number,
  input: CreatePrivacyRequestInput,
  clients: readonly { name: string }[],
  subject: readonly SubjectIdentifier[],
): PrivacyRequest {
  return {
    // Time-ordered (docs/design.md, Privacy API): the request's rows in five tables are keyed by it.
    id: uuidV7(now),
    type: input.type,
    status: 'PENDING',
    environment: input.environment,
    applicationId: input.applicationId,
    submittedAt: now,
    dueAt: privacyDueAt(now),
    startedAt: null,
    completedAt: null,
    clientNames: clients.map((c) => c.name).sort(),
    identifiers: subject.map((s) => ({ kind: s.kind, masked: s.masked })),
    receipt: null,
    exportExpiresAt: null,
  };
}

/**
 * Writes the request with its audit and webhook events, or refuses it when the end user already
 * has one pending; returns how many webhook deliveries it got.
 */
async function insertOrRefuse(
  deps: ServiceDeps,
  filed: {
    request: PrivacyRequest;
    baseUrl: string | null;
    traceParent: string | null;
    clients: readonly { id: string; name: string }[];
    subject: readonly SubjectIdentifier[];
    linked: readonly SubjectKey[];
  },
): Promise<number> {
  const { request, baseUrl, traceParent, clients, subject } = filed;
  // The webhook fan-out (finding the application's subscriptions, then its rows) costs a third
  // of the insert's time on PostgreSQL and a query built per request on SQLite, so it is left
  // out for applications without endpoints (most). The cache learns of a new endpoint at once on
  // this instance and through Redis, else within TOKEN_CACHE_TTL_MS.
  const subscribed = await deps.cache.webhookEndpoints.get(request.applicationId);
  const events = {
    audit: creationEvent(request),
    webhook: subscribed ? creationWebhook(request, baseUrl) : null,
  };
  const keys = pendingKeys(
    clients.map((c) => c.id),
    subject,
    filed.linked,
  );
  try {
    return await insertPrivacyRequest(
      deps.store,
      { ...request, baseUrl, traceParent, clients, identifiers: subject, pendingKeys: keys },
      events,
    );
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    throw new AppError('PENDING_REQUEST_EXISTS', {
      detail:
        'a forget or access request for the same end user is still pending in one of these clients; ' +
        'submit again once it has completed',
    });
  }
}
