import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { Environment } from '../../src/domain/environment.js';
import type { ServiceDeps } from '../../src/services/deps.js';
import { claimPrivacyRequest } from '../../src/services/privacy/claim-privacy-request.js';
import { processPrivacyRequest } from '../../src/services/privacy/process-privacy-request.js';
import { scrubFreedPages } from '../../src/services/privacy/scrub-freed-pages.js';
import { importReviews } from '../../src/services/reviews/import-reviews.js';
import { type DemoCredentials, seedDemo } from '../../src/services/tenancy/seed-demo.js';
import type { PrivacyCompactionsTable } from '../../src/store/schema.js';
import { issueTestToken as issueRuntimeToken } from './credentials.js';

/**
 * A bearer token for an application, issued by the token service (no token endpoint needed). It
 * lives a year, so tests that move the clock by months keep using it.
 */
export async function issueTestToken(
  deps: ServiceDeps,
  applicationId: string,
  environment: Environment = 'production',
): Promise<string> {
  return issueRuntimeToken({ deps }, applicationId, environment, {
    expiresAt: deps.clock() + 365 * 86_400_000,
  });
}

export interface PrivacyTenant extends DemoCredentials {
  readonly token: string;
}

/** The demo tenant (Alice, Bob and Chloé in Acme-EN_GB and Acme-DE_DE) with a bearer token. */
export async function seedPrivacyTenant(
  deps: ServiceDeps,
  environment: Environment = 'production',
): Promise<PrivacyTenant> {
  const demo = await seedDemo(deps, { environment: environment });
  return { ...demo, token: await issueTestToken(deps, demo.applicationId, environment) };
}

export interface Person {
  readonly name: string;
  readonly authorId?: string;
  readonly emailAddress?: string;
  readonly phoneNumber?: string;
  readonly instagramUsername?: string;
  readonly twitterUsername?: string;
}

/** Imports `count` reviews by one person into a client; returns their ids. */
export async function importReviewsBy(
  deps: ServiceDeps,
  person: Person,
  options: { clientName: string; count: number; environment?: Environment; prefix?: string },
): Promise<string[]> {
  const prefix = options.prefix ?? randomUUID().slice(0, 8);
  const ids = Array.from({ length: options.count }, (_, i) => `${prefix}-${i}`);
  async function* lines() {
    for (const id of ids) {
      yield JSON.stringify({
        id,
        clientName: options.clientName,
        rating: 4,
        title: `A review by ${person.name}`,
        text: `Signed, ${person.name}`,
        submittedAt: '2026-03-01T10:00:00Z',
        author: person,
      });
    }
  }
  const result = await importReviews(deps, {
    lines: lines(),
    environment: options.environment ?? 'production',
  });
  if (result.imported !== options.count) throw new Error(`imported ${result.imported} of ${options.count}`);
  return ids;
}

/** Adds one client response per review, written as a brand would (names the reviewer). */
export async function respondTo(
  deps: ServiceDeps,
  applicationId: string,
  reviewIds: readonly string[],
  environment: Environment = 'production',
): Promise<void> {
  const db = deps.store.db;
  const now = deps.clock();
  let author = await db
    .selectFrom('response_authors')
    .select('id')
    .where('application_id', '=', applicationId)
    .where('name', '=', 'Support team')
    .executeTakeFirst();
  if (!author) {
    author = { id: randomUUID() };
    await db
      .insertInto('response_authors')
      .values({
        id: author.id,
        environment,
        application_id: applicationId,
        name: 'Support team',
        created_at: now,
      })
      .execute();
  }
  for (const reviewId of reviewIds) {
    const review = await db
      .selectFrom('reviews')
      .select(['client_id', 'author_name'])
      .where('id', '=', reviewId)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('client_responses')
      .values({
        id: randomUUID(),
        environment,
        review_id: reviewId,
        client_id: review.client_id,
        application_id: applicationId,
        author_id: author.id,
        department: 'Care',
        response: `Thank you, ${review.author_name ?? 'reviewer'}!`,
        response_hash: randomUUID(),
        response_by: 'Dana',
        response_source: 'Demo application',
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
}

/** Every row of the tables that hold access exports (sections and their reviews), as text. */
export async function exportTablesText(deps: ServiceDeps): Promise<string> {
  const db = deps.store.db;
  return JSON.stringify([
    ...(await db.selectFrom('privacy_exports').selectAll().execute()),
    ...(await db.selectFrom('privacy_export_reviews').selectAll().execute()),
  ]);
}
/** Runs privacy requests to completion in this process, as the worker would, until none is left. */
export async function drainPrivacyQueue(deps: ServiceDeps): Promise<number> {
  const owner = `test-${randomUUID()}`;
  let done = 0;
  for (;;) {
    const request = await claimPrivacyRequest(deps, { owner });
    if (!request) break;
    const outcome = await processPrivacyRequest(deps, { request, owner });
    if (outcome.status !== 'completed') throw new Error(`request ended ${outcome.status}`);
    done++;
  }
  if (!(await scrubFreedPages(deps)))
    throw new Error('the WAL could not be emptied: another connection holds it');
  return done;
}

type CompactionRow = Selectable<PrivacyCompactionsTable>;

/** The recorded compactions, oldest first. */
export const compactionRows = (deps: ServiceDeps): Promise<CompactionRow[]> =>
  deps.store.db.selectFrom('privacy_compactions').selectAll().orderBy('started_at').execute();

type InjectResponse = Awaited<ReturnType<FastifyInstance['inject']>>;

export interface PrivacyClient {
  post(type: 'forget' | 'access', body: unknown, headers?: Record<string, string>): Promise<InjectResponse>;
  get(
    path: string,
    query?: Record<string, string>,
    headers?: Record<string, string>,
  ): Promise<InjectResponse>;
}

/** app.inject wrappers that add the tenant's token, passkey and host. */
export function privacyClient(
  app: FastifyInstance,
  tenant: { token: string; privacyPasskey: string },
  host = 'localhost',
): PrivacyClient {
  const auth = { host, authorization: `Bearer ${tenant.token}` };
  return {
    post(type, body, headers = {}) {
      return app.inject({
        method: 'POST',
        url: `/privacy/v1/${type}Requests`,
        query: { passkey: tenant.privacyPasskey },
        headers: { ...auth, 'content-type': 'application/json', ...headers },
        payload: typeof body === 'string' ? body : JSON.stringify(body),
      });
    },
    get(path, query = {}, headers = {}) {
      return app.inject({
        method: 'GET',
        url: `/privacy/v1${path}`,
        query: { passkey: tenant.privacyPasskey, ...query },
        headers: { ...auth, ...headers },
      });
    },
  };
}
