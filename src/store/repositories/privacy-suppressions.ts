import type { Kysely } from 'kysely';
import type { Environment } from '../../domain/environment.js';
import { chunks } from '../chunks.js';
import type { Database } from '../schema.js';
import type { RequestIdentifierRow } from './privacy-requests.js';

/**
 * Suppresses forget requests' subjects in their clients: every named and linked identifier (the
 * requests' pending keys, still present in the completing transaction) becomes a suppression whose
 * subject is the request. An identifier already suppressed by an earlier request keeps its first
 * subject.
 */
export async function suppressSubjects(
  db: Kysely<Database>,
  input: { requestIds: readonly string[]; now: number },
): Promise<void> {
  if (input.requestIds.length === 0) return;
  await db
    .insertInto('privacy_suppressions')
    .columns(['environment', 'client_id', 'kind', 'value_hash', 'subject_id', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('privacy_pending_keys')
        .select((k) => [
          'environment',
          'client_id',
          'kind',
          'value_hash',
          'request_id',
          k.val(input.now).as('created_at'),
        ])
        .where('request_id', 'in', input.requestIds),
    )
    .onConflict((oc) => oc.columns(['client_id', 'value_hash', 'kind']).doNothing())
    .execute();
}

/**
 * Which of these identifier hashes belong, in this client, to a forgotten person or to the subject
 * of a forget request still in progress. Hashes are keyed per kind, so the hash alone decides.
 */
export async function findSuppressedHashes(
  db: Kysely<Database>,
  input: { clientId: string; hashes: readonly string[] },
): Promise<Set<string>> {
  const found = new Set<string>();
  for (const chunk of chunks([...new Set(input.hashes)], 1000)) {
    const rows = await db
      .selectFrom('privacy_suppressions')
      .select('value_hash')
      .where('client_id', '=', input.clientId)
      .where('value_hash', 'in', chunk)
      .union(
        db
          .selectFrom('privacy_pending_keys as k')
          .innerJoin('privacy_requests as r', 'r.id', 'k.request_id')
          .select('k.value_hash')
          .where('k.client_id', '=', input.clientId)
          .where('k.value_hash', 'in', chunk)
          .where('r.type', '=', 'forget'),
      )
      .execute();
    for (const r of rows) found.add(r.value_hash);
  }
  return found;
}

export interface SuppressionMatch {
  readonly clientId: string;
  readonly subjectId: string;
}

/** The suppressed subjects, per client, that any of these identifiers belongs to. */
export async function findSuppressionsMatching(
  db: Kysely<Database>,
  input: {
    environment: Environment;
    clientIds: readonly string[];
    identifiers: readonly RequestIdentifierRow[];
  },
): Promise<SuppressionMatch[]> {
  if (input.clientIds.length === 0 || input.identifiers.length === 0) return [];
  const rows = await db
    .selectFrom('privacy_suppressions')
    .select(['client_id', 'subject_id', 'kind', 'value_hash'])
    .where('environment', '=', input.environment)
    .where('client_id', 'in', input.clientIds)
    .where(
      'value_hash',
      'in',
      input.identifiers.map((i) => i.hash),
    )
    .execute();
  const matches = new Map<string, SuppressionMatch>();
  for (const r of rows) {
    if (!input.identifiers.some((i) => i.kind === r.kind && i.hash === r.value_hash)) continue;
    matches.set(`${r.client_id}\u0000${r.subject_id}`, { clientId: r.client_id, subjectId: r.subject_id });
  }
  return [...matches.values()];
}

/** Lifts a subject's suppression in one client; returns how many identifiers it held. */
export async function deleteSubjectSuppressions(
  db: Kysely<Database>,
  match: SuppressionMatch,
): Promise<number> {
  const r = await db
    .deleteFrom('privacy_suppressions')
    .where('subject_id', '=', match.subjectId)
    .where('client_id', '=', match.clientId)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

export interface SuppressionLift {
  readonly id: string;
  readonly environment: Environment;
  readonly clientId: string;
  readonly clientName: string;
  readonly subjectId: string;
  readonly identifiers: number;
  readonly reason: string;
  readonly liftedBy: string;
  readonly liftedAt: number;
}

export async function insertSuppressionLift(db: Kysely<Database>, lift: SuppressionLift): Promise<void> {
  await db
    .insertInto('privacy_suppression_lifts')
    .values({
      id: lift.id,
      environment: lift.environment,
      client_id: lift.clientId,
      client_name: lift.clientName,
      subject_id: lift.subjectId,
      identifiers: lift.identifiers,
      reason: lift.reason,
      lifted_by: lift.liftedBy,
      lifted_at: lift.liftedAt,
    })
    .execute();
}
