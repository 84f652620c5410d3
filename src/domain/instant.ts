/** A time as the APIs, exports and the CLI show it: ISO 8601 in UTC, or null when there is none. */
export const iso = (ms: number): string => new Date(ms).toISOString();

export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));
