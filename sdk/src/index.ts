export {
  type AdminClientOptions,
  type AdminPaths,
  type AdminSchemas,
  createAdminClient,
} from './create-admin-client.js';
export {
  type AccessExport,
  type AuthorDocument,
  type ClientOptions,
  type ClientResponseCollection,
  type ClientResponseDocument,
  type CreateOptions,
  createClient,
  type NewResponse,
  type PrivacyListFilters,
  type PrivacyRequest,
  type PrivacyRequestEvent,
  type PrivacyRequestList,
  type PrivacySubject,
  type ResponseChanges,
  type ResponseCounts,
  type ResponsePage,
  type ReviewDocument,
  type ReviewsApiClient,
} from './create-client.js';
export type { components, paths } from './generated/schema.js';
export { ReviewsApiError } from './reviews-api-error.js';
