import type { Environment } from '../../domain/environment.js';
import type { PrivacyRequestStatus, PrivacyRequestType } from '../../domain/privacy-request.js';
import type { PageOrder } from '../../store/keyset-page.js';
import {
  findRequestClients,
  pageEnvironmentPrivacyRequests,
} from '../../store/repositories/privacy-requests.js';
import type { ServiceDeps } from '../deps.js';
import { type Page, type PageRequest, readPage } from '../paging/read-page.js';

/**
 * A privacy request as an operator oversees it: where it stands and for whom it was filed (the
 * application and client instances), never who it is about. It has no field for an identifier,
 * masked or hashed, so no list built from it can show one.
 */
export interface PrivacyRequestOverview {
  readonly id: string;
  readonly type: PrivacyRequestType;
  readonly status: PrivacyRequestStatus;
  readonly environment: Environment;
  readonly applicationId: string;
  readonly clientNames: readonly string[];
  readonly submittedAt: number;
  readonly dueAt: number;
  readonly completedAt: number | null;
}

export interface EnvironmentRequestsInput extends PageRequest {
  readonly environment: Environment;
  readonly type?: PrivacyRequestType | undefined;
  readonly status?: PrivacyRequestStatus | undefined;
  readonly applicationId?: string | undefined;
  /** Oldest first unless `desc`. */
  readonly order?: PageOrder | undefined;
}

/**
 * The privacy requests of every application of one environment, a page at a time by submission
 * time: those kept until the purge (docs/design.md, Privacy API), pending or completed.
 */
export async function listEnvironmentPrivacyRequests(
  deps: ServiceDeps,
  input: EnvironmentRequestsInput,
): Promise<Page<PrivacyRequestOverview>> {
  const { environment, type, status, applicationId, order } = input;
  const page = await readPage(
    input,
    (after, limit) =>
      pageEnvironmentPrivacyRequests(
        deps.store.db,
        { environment, type, status, applicationId },
        after,
        limit,
        order,
      ),
    (row) => ({ at: Number(row.submitted_at), id: row.id }),
  );
  const clients = await findRequestClients(
    deps.store.db,
    page.items.map((r) => r.id),
  );
  return {
    items: page.items.map((row) => ({
      id: row.id,
      type: row.type,
      status: row.status,
      environment,
      applicationId: row.application_id,
      clientNames: (clients.get(row.id) ?? []).map((c) => c.name),
      submittedAt: Number(row.submitted_at),
      dueAt: Number(row.due_at),
      completedAt: row.completed_at === null ? null : Number(row.completed_at),
    })),
    nextCursor: page.nextCursor,
  };
}
