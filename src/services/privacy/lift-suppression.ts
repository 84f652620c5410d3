import { randomUUID } from 'node:crypto';
import type { Environment } from '../../domain/environment.js';
import type { Identifiers } from '../../domain/identifiers.js';
import { privacySubject } from '../../domain/privacy-subject.js';
import { AppError } from '../../errors.js';
import { findClientsByNames, listClients } from '../../store/repositories/clients.js';
import {
  deleteSubjectSuppressions,
  findSuppressionsMatching,
  insertSuppressionLift,
} from '../../store/repositories/privacy-suppressions.js';
import { inTransaction } from '../../store/transaction.js';
import { afterCommit } from '../after-commit.js';
import { recordAudit } from '../audit/record-audit.js';
import type { ServiceDeps } from '../deps.js';

export interface LiftSuppressionInput {
  readonly environment: Environment;
  /** Defaults to every client instance of the environment. */
  readonly clientNames?: readonly string[];
  /** Any identifier of the forgotten person, as a forget request would name it. */
  readonly identifiers: Identifiers;
  readonly reason: string;
  /** Who lifts it (an operator's name). */
  readonly liftedBy: string;
}

export interface LiftedSuppression {
  readonly id: string;
  readonly clientName: string;
  /** How many of the person's identifier hashes stopped being suppressed in that client. */
  readonly identifiers: number;
}

/**
 * An operator's explicit decision that a forgotten person's data may be imported again in some
 * clients (docs/design.md, Privacy API, "Suppression"), e.g. after the person came back as a
 * customer. Lifts the whole person (every identifier the forget request suppressed) in each
 * matching client, and records each lift with its reason; the record names no identifier.
 */
export async function liftSuppression(
  deps: ServiceDeps,
  input: LiftSuppressionInput,
): Promise<{ lifted: LiftedSuppression[] }> {
  const reason = input.reason.trim();
  if (!reason) {
    throw new AppError('MISSING_PROPERTY', { field: 'reason', detail: 'a reason is required' });
  }
  const subject = privacySubject(deps.identifierKey, input.identifiers);
  const clients = input.clientNames
    ? await findClientsByNames(deps.store.db, input.environment, [...new Set(input.clientNames)])
    : await listClients(deps.store.db, input.environment);
  const missing = (input.clientNames ?? []).filter((n) => !clients.some((c) => c.name === n));
  if (missing.length > 0) {
    throw new AppError('UNKNOWN_CLIENT_NAME', {
      field: 'clientNames',
      detail: `no client named ${missing.map((n) => `"${n}"`).join(', ')} in ${input.environment}`,
    });
  }
  const names = new Map(clients.map((c) => [c.id, c.name]));
  const now = deps.clock();
  const lifted = await inTransaction(deps.store.db, async (trx) => {
    const matches = await findSuppressionsMatching(trx, {
      environment: input.environment,
      clientIds: clients.map((c) => c.id),
      identifiers: subject,
    });
    const done: LiftedSuppression[] = [];
    for (const match of matches) {
      const count = await deleteSubjectSuppressions(trx, match);
      const lift = {
        id: randomUUID(),
        environment: input.environment,
        clientId: match.clientId,
        clientName: names.get(match.clientId) ?? match.clientId,
        subjectId: match.subjectId,
        identifiers: count,
        reason,
        liftedBy: input.liftedBy,
        liftedAt: now,
      };
      await insertSuppressionLift(trx, lift);
      // The reason is the operator's free text and may name the person: it stays in the lift record.
      await recordAudit(trx, deps, {
        action: 'suppression.lifted',
        targetType: 'suppression',
        targetId: lift.id,
        details: { environment: lift.environment, clientName: lift.clientName, identifiers: count },
      });
      done.push({ id: lift.id, clientName: lift.clientName, identifiers: count });
    }
    return done.sort((a, b) => a.clientName.localeCompare(b.clientName));
  });
  if (lifted.length === 0) {
    throw new AppError('NOT_FOUND', {
      detail: `no forgotten person in ${input.environment} matches these identifiers in these clients`,
    });
  }
  // Reported once committed: a caller's transaction (services/idempotency) may still roll back.
  await afterCommit(deps, async () => {
    for (const l of lifted) {
      deps.logger.warn(
        {
          suppressionLiftId: l.id,
          clientName: l.clientName,
          identifiers: l.identifiers,
          liftedBy: input.liftedBy,
        },
        'privacy suppression lifted',
      );
    }
  });
  return { lifted };
}
