import type { Kysely } from 'kysely';
import type { Receipt } from '../../domain/privacy-receipt.js';
import type { Database, PrivacyRequestRow } from '../../store/schema.js';
import type { ServiceDeps } from '../deps.js';

// One transaction's work on claimed privacy requests (processPrivacyRequests runs them).

/** One request of a batch while it is carried out. */
export interface Open {
  readonly request: PrivacyRequestRow;
  readonly clientName: ReadonlyMap<string, string>;
  batches: number;
}

export interface StepInput {
  /** The requests whose leases this transaction holds. */
  readonly requests: readonly Open[];
  /** Each request's receipt so far, as stored. */
  readonly receipts: ReadonlyMap<string, Receipt>;
  readonly now: number;
  /** The lease owner carrying them out: the audit trail's actor for their completion. */
  readonly owner: string;
}

export interface StepResult {
  readonly touched: Map<string, { receipt: Receipt; done: boolean }>;
  /** Webhook deliveries written for the requests it completed. */
  readonly webhookDeliveries: number;
}

export type Step = (deps: ServiceDeps, trx: Kysely<Database>, input: StepInput) => Promise<StepResult>;
