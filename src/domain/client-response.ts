import type { Environment } from './environment.js';

/** A brand's answer to a review (docs/interface.md §10.2), with the client instance that gives it. */
export interface ClientResponse {
  readonly id: string;
  readonly environment: Environment;
  readonly reviewId: string;
  /** The client instance the review belongs to and that answers it. */
  readonly clientId: string;
  readonly clientName: string;
  /** The application that wrote it. */
  readonly applicationId: string;
  readonly authorId: string;
  readonly department: string;
  readonly response: string;
  /** Digest of the text: an identical text to the same review is refused. */
  readonly responseHash: string;
  readonly responseBy: string | null;
  /** Name of the application that wrote it. */
  readonly responseSource: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** Which author wrote a response: all the author endpoints answer with (docs/interface.md §4.1). */
export type ResponseAuthorship = Pick<ClientResponse, 'id' | 'authorId'>;
