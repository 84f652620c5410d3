import { randomUUID } from 'node:crypto';
import type { Client } from '../../domain/client.js';
import { CLIENT_NAME_RE } from '../../domain/client.js';
import type { Environment } from '../../domain/environment.js';
import { AppError } from '../../errors.js';
import { isUniqueViolation } from '../../store/driver-errors.js';
import { insertClient } from '../../store/repositories/clients.js';
import { inTransaction } from '../../store/transaction.js';
import { recordAudit } from '../audit/record-audit.js';
import type { ServiceDeps } from '../deps.js';

export async function createClient(
  deps: ServiceDeps,
  input: { environment: Environment; name: string },
): Promise<Client> {
  if (!CLIENT_NAME_RE.test(input.name)) {
    throw new AppError('INVALID_PROPERTY_VALUE', {
      field: 'name',
      detail: 'a client name is 1-100 letters, digits, "-", "_" or "."',
    });
  }
  const row: Client = {
    id: randomUUID(),
    environment: input.environment,
    name: input.name,
    createdAt: deps.clock(),
  };
  try {
    await inTransaction(deps.store.db, async (trx) => {
      await insertClient(trx, row);
      await recordAudit(trx, deps, {
        action: 'client.created',
        targetType: 'client',
        targetId: row.id,
        details: { environment: row.environment, name: row.name },
      });
    });
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw new AppError('CONFLICT', {
        field: 'name',
        detail: `client "${input.name}" already exists in ${input.environment}`,
      });
    }
    throw err;
  }
  return row;
}
