import { createHash } from 'node:crypto';
import { AppError } from '../errors.js';

/** The public system's limit on a response (docs/interface.md §10.2). */
export const RESPONSE_MAX_CHARS = 65_535;
export const DEPARTMENT_MAX_CHARS = 200;
export const RESPONSE_BY_MAX_CHARS = 200;

/** What a partner writes when answering a review. */
export interface ResponseAttributes {
  readonly department: string;
  readonly response: string;
  readonly responseBy: string | null;
}

/** Counted in code points, as JSON Schema's maxLength counts them, so both checks agree. */
function charCount(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

function checkText(field: string, value: string, max: number): void {
  if (value.trim() === '') {
    throw new AppError('INVALID_PROPERTY_VALUE', {
      field: `attributes.${field}`,
      detail: `attributes.${field} must not be empty`,
      source: { pointer: `/attributes/${field}` },
    });
  }
  if (charCount(value) > max) {
    throw new AppError('INVALID_PROPERTY_VALUE', {
      field: `attributes.${field}`,
      detail: `attributes.${field} must be at most ${max} characters`,
      source: { pointer: `/attributes/${field}` },
    });
  }
  // PostgreSQL text cannot hold U+0000; refusing it on every database keeps them interchangeable.
  if (value.includes('\u0000')) {
    throw new AppError('INVALID_PROPERTY_VALUE', {
      field: `attributes.${field}`,
      detail: `attributes.${field} must not contain NUL characters`,
      source: { pointer: `/attributes/${field}` },
    });
  }
}

/**
 * Validates a response as the public system does: `department` and `response` are required and
 * not blank, `response` is at most 65,535 characters. Department and responseBy are trimmed; the
 * response text is kept as written.
 */
export function normalizeResponseAttributes(input: {
  department: string;
  response: string;
  responseBy?: string | null | undefined;
}): ResponseAttributes {
  checkText('department', input.department, DEPARTMENT_MAX_CHARS);
  checkText('response', input.response, RESPONSE_MAX_CHARS);
  const by = input.responseBy ?? null;
  if (by !== null && by.trim() !== '') checkText('responseBy', by, RESPONSE_BY_MAX_CHARS);
  return {
    department: input.department.trim(),
    response: input.response,
    responseBy: by === null || by.trim() === '' ? null : by.trim(),
  };
}

/** Key of the "identical duplicate response" rule: the exact text, digested to a fixed width. */
export function responseTextHash(response: string): string {
  return createHash('sha256').update(response, 'utf8').digest('base64url');
}
