import type { ClientResponse, ResponseAuthorship } from '../../domain/client-response.js';
import { iso } from '../../domain/instant.js';
import type { Review } from '../../domain/review.js';
import type { Page } from '../../services/paging/read-page.js';
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

function responseUrl(baseUrl: string, id: string, suffix = ''): string {
  return `${baseUrl}${BASE_PATH}/${id}${suffix}`;
}

function relationshipLinks(baseUrl: string, id: string, name: 'author' | 'review') {
  return {
    self: responseUrl(baseUrl, id, `/relationships/${name}`),
    related: responseUrl(baseUrl, id, `/${name}`),
  };
}

function resource(baseUrl: string, r: ClientResponse): ClientResponseDocument['data'] {
  return {
    type: 'clientResponse',
    id: r.id,
    attributes: {
      department: r.department,
      response: r.response,
      responseBy: r.responseBy,
      responseSource: r.responseSource,
      responderClient: r.clientName,
      created: iso(r.createdAt),
      updated: iso(r.updatedAt),
    },
    relationships: {
      author: {
        links: relationshipLinks(baseUrl, r.id, 'author'),
        data: { type: 'author', id: r.authorId },
      },
      review: {
        links: relationshipLinks(baseUrl, r.id, 'review'),
        data: { type: 'review', id: r.reviewId, meta: { clientName: r.clientName } },
      },
    },
    links: { self: responseUrl(baseUrl, r.id) },
  };
}

export function clientResponseDocument(baseUrl: string, r: ClientResponse): ClientResponseDocument {
  return { data: resource(baseUrl, r), links: { self: responseUrl(baseUrl, r.id) } };
}

/**
 * A page of a review's responses. `self` names the page as asked and `next` the page after it
 * (JSON:API 1.1 §6.6), with the page size asked, if any; links never carry the passkey.
 */
export function clientResponseCollection(
  baseUrl: string,
  review: { client: string; reviewId: string },
  page: Page<ClientResponse>,
  asked: { size: number | undefined; after: string | undefined },
): ClientResponseCollection {
  // Both names are pattern-checked ([A-Za-z0-9_.:-]), so they are already valid path segments.
  const list = `${baseUrl}${BASE_PATH}/${review.client}/reviews/${review.reviewId}`;
  const pageUrl = (after: string | undefined) => {
    const query = new URLSearchParams();
    if (asked.size !== undefined) query.set('page[size]', String(asked.size));
    if (after !== undefined) query.set('page[after]', after);
    return query.size > 0 ? `${list}?${query}` : list;
  };
  return {
    data: page.items.map((r) => resource(baseUrl, r)),
    links: {
      self: pageUrl(asked.after),
      ...(page.nextCursor !== null ? { next: pageUrl(page.nextCursor) } : {}),
    },
  };
}

/** docs/interface.md §4.1: self and related are both `{base_url}/response/v1/clientResponses/<guid>/author`. */
export function authorDocument(baseUrl: string, r: ResponseAuthorship): AuthorDocument {
  const url = responseUrl(baseUrl, r.id, '/author');
  return { data: { type: 'author', id: r.authorId }, links: { self: url, related: url } };
}

/** JSON:API relationship document: self is the relationship URL, related the author itself. */
export function authorRelationshipDocument(baseUrl: string, r: ResponseAuthorship): AuthorDocument {
  return { data: { type: 'author', id: r.authorId }, links: relationshipLinks(baseUrl, r.id, 'author') };
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
        submittedAt: iso(review.submittedAt),
      },
    },
    links: { self: url, related: url },
  };
}

export function reviewRelationshipDocument(baseUrl: string, r: ClientResponse): ReviewRelationshipDocument {
  return {
    data: { type: 'review', id: r.reviewId, meta: { clientName: r.clientName } },
    links: relationshipLinks(baseUrl, r.id, 'review'),
  };
}
