import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { batchedStdout } from '../src/batched-stdout.js';
import { eventually } from './helpers/eventually.js';

const dir = mkdtempSync(join(tmpdir(), 'rpa-batched-'));
const file = (name: string) => join(dir, name);
const read = (path: string) => readFileSync(path, 'utf8');
const line = (i: number) => `${JSON.stringify({ i, pad: 'x'.repeat(90) })}\n`;

describe('batched stdout', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('writes lines in order, a batch of about 4 KiB at a time, and the rest on flush', () => {
    const path = file('batches.log');
    const out = batchedStdout(path);
    const sent = Array.from({ length: 100 }, (_, i) => line(i));
    for (const l of sent.slice(0, 3)) out.write(l);
    assert.equal(read(path), '', 'three lines are gathered, not written');
    for (const l of sent.slice(3)) out.write(l);
    const written = read(path);
    assert.ok(
      written.length >= 4096 && written.length < sent.join('').length,
      'whole batches, the last one pending',
    );
    assert.ok(sent.join('').startsWith(written), 'in order, no line cut');
    out.flush();
    assert.equal(read(path), sent.join(''));
  });

  it('writes a pending line within a second at low traffic', async () => {
    const path = file('quiet.log');
    batchedStdout(path).write(line(1));
    await eventually(async () => assert.equal(read(path), line(1)), 3000);
  });

  it('writes what is pending when the process exits, after an uncaught error too', () => {
    for (const ending of ['process.exit(0)', "throw new Error('crash')"]) {
      const path = file(`exit-${ending.length}.log`);
      const script = `import { batchedStdout } from ${JSON.stringify(join(process.cwd(), 'src/batched-stdout.ts'))};
        batchedStdout(${JSON.stringify(path)}).write(${JSON.stringify(line(7))}); ${ending};`;
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        encoding: 'utf8',
      });
      assert.equal(child.status, ending.startsWith('throw') ? 1 : 0, child.stderr);
      assert.equal(read(path), line(7), ending);
    }
  });
});
