import { Type } from 'typebox';

/** Shared parts of the admin API's schemas. */
export const Environment = Type.Union([Type.Literal('production'), Type.Literal('staging')], {
  description: 'The environment the call works in: every call names it',
});

export const Instant = Type.String({ format: 'date-time' });
export const InstantOrNull = Type.Union([Instant, Type.Null()]);

export const EnvironmentParams = Type.Object({ environment: Environment });
export const ApplicationParams = Type.Object({
  environment: Environment,
  app: Type.String({ maxLength: 200, description: 'The application id or its client id' }),
});
