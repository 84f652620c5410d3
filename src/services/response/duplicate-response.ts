import { AppError } from '../../errors.js';

/** The public system refuses an identical duplicate response text to the same review with 400. */
export function duplicateResponse(): AppError {
  return new AppError('DUPLICATE_RESPONSE', {
    field: 'attributes.response',
    detail: 'an identical response to this review already exists',
    source: { pointer: '/attributes/response' },
  });
}
