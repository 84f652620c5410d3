import { Type } from 'typebox';

/** Shared parts of the admin API's schemas. */
export const Environment = Type.Union([Type.Literal('production'), Type.Literal('staging')], {
  description: 'The environment the call works in: every call names it',
});

export const Instant = Type.String({ format: 'date-time' });
export const InstantOrNull = Type.Union([Instant, Type.Null()]);

export const EnvironmentParams = Type.Object({ environment: Environment });

/** A time as the admin API shows it: ISO 8601, or null. */
export const iso = (ms: number): string => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));
