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
