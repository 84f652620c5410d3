import type { Environment } from './environment.js';
import type { IdentifierKind } from './identifiers.js';

/** What a review keeps of its author: personal data, erased by forget requests. Empty values are absent. */
export type ReviewAuthor = Partial<Record<IdentifierKind | 'name', string>>;

/** A consumer review of one client instance. */
export interface Review {
  readonly id: string;
  readonly environment: Environment;
  readonly clientId: string;
  readonly rating: number | null;
  readonly title: string | null;
  readonly text: string | null;
  readonly author: ReviewAuthor;
  readonly submittedAt: number;
  readonly createdAt: number;
}

/** A review with the keyed hashes of its author's identifiers, as an import stores it. */
export interface ReviewRecord {
  readonly review: Review;
  readonly identifiers: readonly { readonly kind: IdentifierKind; readonly hash: string }[];
}

/** How many profile values (name and identifiers) a review holds: what erasing it removes. */
export function profileFieldCount(review: Review): number {
  return Object.values(review.author).filter((v) => v !== undefined && v !== '').length;
}
