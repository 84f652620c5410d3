import type { AdminScope } from '../../domain/admin-scope.js';

/** Who calls the admin API: an admin token, or the operator running `rpa` with the database. */
export interface AdminCaller {
  /** Recorded as the actor of every change made by the call (docs/operations.md, Audit trail). */
  readonly actor: string;
  readonly scopes: readonly AdminScope[];
  /**
   * Derived from the admin token's value, which is stored only as a digest: seals the answers
   * kept for its Idempotency-Keys (domain/idempotency-key.ts). Never logged. Empty for the
   * operator calling in process, who holds the database credentials anyway.
   */
  readonly answerSecret: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    adminCaller: AdminCaller | null;
  }
}
