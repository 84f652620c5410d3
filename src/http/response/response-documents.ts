import type { ClientResponseRecord } from '../../store/repositories/client-responses.js';
import type { Review } from '../../store/schema.js';
import type {
  AuthorDocument,
  ClientResponseCollection,
  ClientResponseDocument,
  ReviewDocument,
  ReviewRelationshipDocument,
} from './response-schemas.js';

/**
 * Links always name the current `/response/v1` paths, also when the request came through the
 * deprecated `/contentmanagement` prefix: clients that follow them move to the successor.
 */
const BASE_PATH = '/response/v1/clientResponses';

const iso = (ms: number) => new Date(ms).toISOString();

export function responseUrl(baseUrl: string, id: string, suffix = ''): string {
  return `${baseUrl}${BASE_PATH}/${id}${suffix}`;
}

function relationshipLinks(baseUrl: string, id: string, name: 'author' | 'review') {
  return {
    self: responseUrl(baseUrl, id, `/relationships/${name}`),
    related: responseUrl(baseUrl, id, `/${name}`),
  };
}

function resource(baseUrl: string, r: ClientResponseRecord): ClientResponseDocument['data'] {
  return {
    type: 'clientResponse',
    id: r.id,
    attributes: {
      department: r.department,
      response: r.response,
      responseBy: r.response_by,
      responseSource: r.response_source,
      responderClient: r.client_name,
      created: iso(r.created_at),
      updated: iso(r.updated_at),
    },
    relationships: {
      author: {
        links: relationshipLinks(baseUrl, r.id, 'author'),
        data: { type: 'author', id: r.author_id },
      },
      review: {
        links: relationshipLinks(baseUrl, r.id, 'review'),
        data: { type: 'review', id: r.review_id, meta: { clientName: r.client_name } },
      },
    },
    links: { self: responseUrl(baseUrl, r.id) },
  };
}

export function clientResponseDocument(baseUrl: string, r: ClientResponseRecord): ClientResponseDocument {
  return { data: resource(baseUrl, r), links: { self: responseUrl(baseUrl, r.id) } };
}

export function clientResponseCollection(
  baseUrl: string,
  clientName: string,
  reviewId: string,
  records: readonly ClientResponseRecord[],
): ClientResponseCollection {
  // Both names are pattern-checked ([A-Za-z0-9_.:-]), so they are already valid path segments.
  return {
    data: records.map((r) => resource(baseUrl, r)),
    links: { self: `${baseUrl}${BASE_PATH}/${clientName}/reviews/${reviewId}` },
  };
}

/** Seed §4.1: self and related are both `{base_url}/response/v1/clientResponses/<guid>/author`. */
export function authorDocument(baseUrl: string, r: ClientResponseRecord): AuthorDocument {
  const url = responseUrl(baseUrl, r.id, '/author');
  return { data: { type: 'author', id: r.author_id }, links: { self: url, related: url } };
}

/** JSON:API relationship document: self is the relationship URL, related the author itself. */
export function authorRelationshipDocument(baseUrl: string, r: ClientResponseRecord): AuthorDocument {
  return { data: { type: 'author', id: r.author_id }, links: relationshipLinks(baseUrl, r.id, 'author') };
}

export function reviewDocument(
  baseUrl: string,
  responseId: string,
  review: Review,
  clientName: string,
): ReviewDocument {
  const url = responseUrl(baseUrl, responseId, '/review');
  return {
    data: {
      type: 'review',
      id: review.id,
      // The review's author and their identifiers are personal data and stay out of this API.
      attributes: {
        clientName,
        rating: review.rating,
        title: review.title,
        text: review.text,
        submittedAt: iso(review.submitted_at),
      },
    },
    links: { self: url, related: url },
  };
}

export function reviewRelationshipDocument(
  baseUrl: string,
  r: ClientResponseRecord,
): ReviewRelationshipDocument {
  return {
    data: { type: 'review', id: r.review_id, meta: { clientName: r.client_name } },
    links: relationshipLinks(baseUrl, r.id, 'review'),
  };
}
