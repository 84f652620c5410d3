/** Every tenant's row belongs to one environment; the request's host picks it (docs/design.md, Environments). */
export type Environment = 'production' | 'staging';

export const ENVIRONMENTS: readonly Environment[] = ['production', 'staging'];

export function isEnvironment(v: string): v is Environment {
  return (ENVIRONMENTS as readonly string[]).includes(v);
}

export const STAGING_PREFIX = 'stg.';

export interface RequestHost {
  readonly environment: Environment;
  /** Host name as sent (lower case), port included, used to build absolute links. */
  readonly host: string;
  /** Host name without port and without the staging prefix: compared with the allow-list. */
  readonly baseHostname: string;
}

const HOST_RE = /^(?<name>[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(?<port>\d{1,5}))?$/;

/**
 * Production and staging differ by host only: a `stg.` prefix picks staging (docs/interface.md §9).
 * Returns null for a Host header that is not a syntactically valid host[:port].
 */
export function parseRequestHost(hostHeader: string | undefined): RequestHost | null {
  if (!hostHeader) return null;
  const host = hostHeader.trim().toLowerCase();
  const m = HOST_RE.exec(host);
  if (!m?.groups) return null;
  const name = m.groups.name as string;
  const staging = name.startsWith(STAGING_PREFIX) && name.length > STAGING_PREFIX.length;
  return {
    environment: staging ? 'staging' : 'production',
    host,
    baseHostname: staging ? name.slice(STAGING_PREFIX.length) : name,
  };
}
