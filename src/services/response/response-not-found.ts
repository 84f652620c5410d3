import { AppError } from '../../errors.js';

/** The public system's 404 for a response GUID (docs/interface.md §10.2: field `id`). */
export function responseNotFound(): AppError {
  return new AppError('RESPONSE_NOT_FOUND', {
    field: 'id',
    detail: 'Client Response Id does not exist',
    source: { parameter: 'responseGuid' },
  });
}
