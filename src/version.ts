import { readFileSync } from 'node:fs';

/**
 * The version of this server, from its package.json: one file, one level above both `src/` (under
 * tsx) and `dist/` (built), so the same lookup works from either and from an installed package.
 */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
