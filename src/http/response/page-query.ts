import { Type } from 'typebox';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../../services/paging/read-page.js';

/**
 * JSON:API 1.1 §6.6: the `page` family of query parameters pages a collection; `page[size]` and
 * `page[after]` as JSON:API's cursor pagination profile names them, with the size limits and
 * cursors of every other list of this server (services/paging/read-page.ts).
 */
export const PAGE_QUERY = {
  'page[size]': Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_PAGE_LIMIT,
      description: `Responses per page (default ${DEFAULT_PAGE_LIMIT})`,
    }),
  ),
  'page[after]': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'Where the page starts: from `links.next` of the previous page',
    }),
  ),
};
