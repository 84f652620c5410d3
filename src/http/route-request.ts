import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
} from 'fastify';

/**
 * A request as a route with this schema hands it over: params, query and body typed from the
 * route's TypeBox schemas, which Fastify has validated before the handler runs.
 */
export type RouteRequest<S extends FastifySchema> = FastifyRequest<
  RouteGenericInterface,
  RawServerDefault,
  RawRequestDefaultExpression,
  S,
  TypeBoxTypeProvider
>;

/** The reply of a route with this schema: what `send` accepts is typed from its responses. */
export type RouteReply<S extends FastifySchema> = FastifyReply<
  RouteGenericInterface,
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  unknown,
  S,
  TypeBoxTypeProvider
>;
