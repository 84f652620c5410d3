import { Type } from 'typebox';

/**
 * RFC 9457 problem details, as rendered by render.ts (PROBLEM_DETAILS): the Privacy API's errors
 * and those of every path outside the other APIs. `instance` is the request path; it is left out
 * only when the request line could not be read.
 */
export const Problem = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    instance: Type.Optional(Type.String()),
    code: Type.String(),
    errors: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
  },
  { additionalProperties: true, $id: 'ProblemDetails' },
);
