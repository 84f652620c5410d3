import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The checkout's root: the nearest directory above this module holding package.json. `npm test`
 * runs the suite transpiled under build/test/ (scripts/test.mjs), `node --import tsx --test` runs
 * it from test/; both find the same root, where relative URLs would name two different places.
 */
export const REPO_ROOT: string = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('no package.json above the test helpers');
    dir = parent;
  }
  return dir;
})();
