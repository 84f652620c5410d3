import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { AppError } from '../../errors.js';
import { CLIENT_RESPONSE_TYPE } from './response-schemas.js';

type Member = Record<string, unknown>;

function isObject(value: unknown): value is Member {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Checks a request document where JSON:API assigns an answer of its own, before the body schema
 * sees it (a schema failure would be a 400): a resource object of another type is 409 Conflict
 * (JSON:API 1.1 §7.1.2, §7.2.3), so is an update naming another resource's id, and a
 * client-generated id on creation is 403 Forbidden because this API assigns ids (§7.1.1).
 *
 * The body is either a JSON:API document (`data`) or the public system's flat form
 * (`attributes` at the top); exactly one of them. Anything else malformed is left to the schema.
 */
export function readResourceDocument(operation: 'create' | 'update') {
  return function readResourceDocument(
    request: FastifyRequest,
    _reply: FastifyReply,
    done: HookHandlerDoneFunction,
  ): void {
    const problem = documentProblem(request.body, operation, (request.params as Member).responseGuid);
    if (problem) done(problem);
    else done();
  };
}

/** What JSON:API or the body's form says is wrong with a request document, if anything. */
function documentProblem(body: unknown, operation: 'create' | 'update', target: unknown): AppError | null {
  if (!isObject(body)) return null;
  const hasData = body.data !== undefined;
  const hasAttributes = body.attributes !== undefined;
  if (hasData && hasAttributes) {
    return new AppError('INVALID_REQUEST', {
      detail: 'send the resource object in data, or the attributes alone, not both',
      source: { pointer: '/attributes' },
    });
  }
  if (!hasData && !hasAttributes) {
    // Named as the public system names it, whose clients send the flat form.
    return new AppError('MISSING_PROPERTY', {
      field: 'attributes',
      detail: 'attributes is required (or data, a clientResponse resource object)',
      source: { pointer: '/attributes' },
    });
  }
  const data = body.data;
  if (!isObject(data)) return null;
  if (typeof data.type === 'string' && data.type !== CLIENT_RESPONSE_TYPE) {
    return new AppError('CONFLICT', {
      field: 'data.type',
      detail: `data.type must be ${CLIENT_RESPONSE_TYPE}`,
      source: { pointer: '/data/type' },
    });
  }
  if (data.id !== undefined && operation === 'create') {
    return new AppError('FORBIDDEN', {
      field: 'data.id',
      detail: 'client-generated ids are not supported: leave data.id out',
      source: { pointer: '/data/id' },
    });
  }
  if (typeof data.id === 'string' && operation === 'update' && data.id !== target) {
    return new AppError('CONFLICT', {
      field: 'data.id',
      detail: 'data.id must be the GUID of the response in the URL',
      source: { pointer: '/data/id' },
    });
  }
  return null;
}

/** The attributes of a document that readResourceDocument and the body schema have accepted. */
export function resourceAttributes<T>(body: { data?: { attributes: T }; attributes?: T }): T {
  const attributes = body.data?.attributes ?? body.attributes;
  if (attributes === undefined) {
    throw new AppError('MISSING_PROPERTY', {
      field: 'data',
      detail: 'data is required',
      source: { pointer: '/data' },
    });
  }
  return attributes;
}
