#!/usr/bin/env node
// Regenerates the SDK's copy of the OpenAPI document (sdk/openapi.json) and its TypeScript types
// (sdk/src/generated/schema.ts) from the server's routes. `--check` writes nothing and fails when
// the committed files differ from what the routes generate, so they cannot go stale.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';

const DOCUMENT = 'sdk/openapi.json';
const TYPES = 'sdk/src/generated/schema.ts';
const check = process.argv.includes('--check');

// The document as a server with default settings serves it: nothing from this machine's
// environment (its port, hosts or scheme) may change the generated files.
const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
const printed = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'openapi'], {
  env,
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
if (printed.status !== 0) {
  process.stderr.write(printed.stderr);
  process.exit(printed.status ?? 1);
}
const document = JSON.parse(printed.stdout);
const documentText = `${JSON.stringify(document, null, 2)}\n`;
const typesText = [
  '// Generated from sdk/openapi.json by `npm run sdk:generate`: do not edit.',
  '',
  astToString(await openapiTS(document, { alphabetize: true })),
].join('\n');

const stale = [
  [DOCUMENT, documentText],
  [TYPES, typesText],
].filter(([file, text]) => {
  try {
    return readFileSync(file, 'utf8') !== text;
  } catch {
    return true;
  }
});

if (check) {
  if (stale.length > 0) {
    process.stderr.write(
      `${stale.map(([file]) => file).join(' and ')} differ from the routes: run \`npm run sdk:generate\` and commit\n`,
    );
    process.exit(1);
  }
} else {
  for (const [file, text] of stale) writeFileSync(file, text);
  process.stdout.write(stale.length ? `wrote ${stale.map(([f]) => f).join(', ')}\n` : 'up to date\n');
}
