import type { FastifyReply, FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, type Page } from '../../services/paging/read-page.js';
import { ref } from '../openapi/schema-ref.js';

/** `limit` and `cursor`, the query of every paged list. */
export const PAGE_QUERY = {
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_PAGE_LIMIT,
      description: `Items per page (default ${DEFAULT_PAGE_LIMIT})`,
    }),
  ),
  cursor: Type.Optional(
    Type.String({
      maxLength: 200,
      description: 'Where the page starts: from the `next` link of the previous one',
    }),
  ),
};

/** A page of items, oldest first, and the link to the next page (null on the last). */
export function pageOf(item: TSchema, $id: string) {
  return Type.Object(
    {
      data: Type.Array(ref(item)),
      next: Type.Union([Type.String({ description: 'Path and query of the next page' }), Type.Null()]),
    },
    { $id, additionalProperties: false },
  );
}

export const PAGE_HEADERS = {
  Link: Type.String({ description: 'RFC 8288: rel="next", the next page, when there is one' }),
};

/**
 * Sends a page, its `next` link in the body and in a Link header (RFC 8288): the request's own
 * path and query with the cursor of the next page, so filters carry over.
 */
export function sendPage<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  page: Page<T>,
  view: (item: T) => unknown,
): FastifyReply {
  let next: string | null = null;
  if (page.nextCursor !== null) {
    const url = new URL(request.url, 'http://admin.invalid');
    url.searchParams.set('cursor', page.nextCursor);
    next = `${url.pathname}${url.search}`;
    reply.header('link', `<${next}>; rel="next"`);
  }
  return reply.send({ data: page.items.map(view), next });
}
