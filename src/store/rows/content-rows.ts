import type { Selectable } from 'kysely';
import type { Environment } from '../../domain/environment.js';

// Row types of content: reviews, their authors' identifiers, and client responses with their authors (conventions in ../schema.ts).

export interface ReviewsTable {
  id: string;
  environment: Environment;
  client_id: string;
  rating: number | null;
  title: string | null;
  text: string | null;
  /** Profile fields of the review's author: personal data, erased by forget requests. */
  author_id: string | null;
  author_name: string | null;
  author_email: string | null;
  author_phone: string | null;
  author_instagram: string | null;
  author_facebook: string | null;
  author_twitter: string | null;
  author_youtube_channel: string | null;
  author_youtube_username: string | null;
  author_vimeo: string | null;
  submitted_at: number;
  created_at: number;
}

/** Keyed hashes of a review author's normalized identifiers, for privacy look-ups. */
export interface ReviewIdentifiersTable {
  review_id: string;
  environment: Environment;
  client_id: string;
  kind: string;
  value_hash: string;
}

export interface ResponseAuthorsTable {
  id: string;
  environment: Environment;
  application_id: string;
  name: string;
  created_at: number;
}

export interface ClientResponsesTable {
  id: string;
  environment: Environment;
  review_id: string;
  /** The client instance the review belongs to and that answers it. */
  client_id: string;
  application_id: string;
  author_id: string;
  department: string;
  response: string;
  response_hash: string;
  response_by: string | null;
  response_source: string;
  created_at: number;
  updated_at: number;
}

export type ReviewRow = Selectable<ReviewsTable>;
export type ClientResponseRow = Selectable<ClientResponsesTable>;

/**
 * The columns a review or response is read with, named: whatever reads one of these lists keeps
 * its answer while the next release's migration adds columns (docs/operations.md, "Health,
 * readiness and migrations").
 */
export const REVIEW_COLUMNS = [
  'id',
  'environment',
  'client_id',
  'rating',
  'title',
  'text',
  'author_id',
  'author_name',
  'author_email',
  'author_phone',
  'author_instagram',
  'author_facebook',
  'author_twitter',
  'author_youtube_channel',
  'author_youtube_username',
  'author_vimeo',
  'submitted_at',
  'created_at',
] as const satisfies readonly (keyof ReviewsTable)[];

export const CLIENT_RESPONSE_COLUMNS = [
  'id',
  'environment',
  'review_id',
  'client_id',
  'application_id',
  'author_id',
  'department',
  'response',
  'response_hash',
  'response_by',
  'response_source',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof ClientResponsesTable)[];
