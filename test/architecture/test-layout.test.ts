import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';

/**
 * Where a test goes (docs/architecture.md, Tests): the tests of a module live at
 * `test/<its path under src>.test.ts`, so a module's tests are found by its name. Only
 * test/system/ (end-to-end and multi-process suites) and test/architecture/ (checks over the whole
 * tree) hold suites named after what they exercise instead.
 */
const TEST = 'test';
const NAMED_BY_SUBJECT = ['system', 'architecture'];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? testFiles(p) : e.name.endsWith('.test.ts') ? [p] : [];
  });
}

describe('test layout', () => {
  it('names every unit and integration test after the module under src/ it tests', () => {
    const strays = testFiles(TEST)
      .map((file) => relative(TEST, file))
      .filter((path) => !NAMED_BY_SUBJECT.includes(path.split('/')[0]!))
      .filter((path) => !existsSync(join('src', path.replace(/\.test\.ts$/, '.ts'))));
    assert.deepEqual(strays, [], 'test/X.test.ts tests src/X.ts; move or rename these');
  });
});
