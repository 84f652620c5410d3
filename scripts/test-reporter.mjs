// Reporter for scripts/test.mjs: a line as each test file finishes (node's spec reporter prints a
// file only once every file before it is done, which with system suites first means minutes of
// silence), each failure in full as it arrives, and the totals with the failures listed again.
import { relative } from 'node:path';
import { inspect } from 'node:util';

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
// scripts/test.mjs runs build/test/**/*.js; people edit test/**/*.ts.
const shownPath = (file) => relative(process.cwd(), file).replace(/^build\/(test\/.*)\.js$/, '$1.ts');

function failure(data, suites) {
  const where = data.file ? `${shownPath(data.file)}${data.line ? `:${data.line}` : ''}` : '';
  const error = data.details?.error;
  const shown = error?.failureType === 'testCodeFailure' && error.cause ? error.cause : error;
  return `✖ ${[...suites.slice(0, data.nesting), data.name].join(' › ')}  (${where})\n${inspect(shown, { depth: 6 }).replace(/^/gm, '    ')}\n`;
}

export default async function* progress(source) {
  const started = Date.now();
  const failures = [];
  const suites = [];
  let done = 0;
  for await (const { type, data } of source) {
    if (type === 'test:start') suites[data.nesting] = data.name;
    else if (type === 'test:stdout' || type === 'test:stderr') yield data.message;
    else if (type === 'test:fail' && data.details?.error?.failureType !== 'subtestsFailed') {
      failures.push(failure(data, suites));
      yield `${failures.at(-1).split('\n')[0]}, in full at the end\n`;
    } else if (type === 'test:complete' && data.nesting === 0 && data.name === data.file) {
      done++;
      const mark = data.details.passed ? '✔' : '✖';
      const took = seconds(data.details.duration_ms);
      yield `${mark} ${shownPath(data.file)}  ${took}  [${done} done, ${seconds(Date.now() - started)}]\n`;
    } else if (type === 'test:diagnostic' && data.nesting === 0) yield `ℹ ${data.message}\n`;
  }
  if (failures.length > 0) yield `\nFailures (${failures.length}):\n${failures.join('\n')}`;
}
