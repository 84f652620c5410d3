import { readFileSync } from 'node:fs';

/**
 * This server's package.json: one file, one level above both `src/` (under tsx) and `dist/`
 * (built), so the same lookup works from either and from an installed package.
 */
const PACKAGE = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  name: string;
  version: string;
};

/** The version of this server. */
export const VERSION: string = PACKAGE.version;

/** Its package's name: the service's name in traces unless configured (docs/tracing.md). */
export const PACKAGE_NAME: string = PACKAGE.name;
