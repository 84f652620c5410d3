import type { Kysely } from 'kysely';
import type { Application } from '../../domain/application.js';
import { AppError } from '../../errors.js';
import { findApplicationById } from '../../store/repositories/applications.js';
import type { Database } from '../../store/schema.js';

export async function requireActiveApplication(
  db: Kysely<Database>,
  applicationId: string,
): Promise<Application> {
  const app = await findApplicationById(db, applicationId);
  if (!app) throw new AppError('NOT_FOUND', { field: 'app', detail: `no application ${applicationId}` });
  if (app.status !== 'active')
    throw new AppError('CONFLICT', { field: 'app', detail: 'the application is revoked' });
  return app;
}
