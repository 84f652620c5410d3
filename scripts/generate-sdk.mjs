#!/usr/bin/env node
// Regenerates the SDK's copies of the OpenAPI documents (sdk/openapi.json, sdk/admin-openapi.json)
// and their TypeScript types (sdk/src/generated/) from the server's routes. `--check` writes nothing and fails when
// the committed files differ from what the routes generate, so they cannot go stale.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';

const check = process.argv.includes('--check');

// The documents as a server with default settings serves them: nothing from this machine's
// environment (its port, hosts or scheme) may change the generated files.
const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };

/** The document `rpa openapi` prints with `flags`, and the TypeScript types generated from it. */
async function generated(flags, documentFile, typesFile) {
  const printed = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'openapi', ...flags], {
    env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (printed.status !== 0) {
    process.stderr.write(printed.stderr);
    process.exit(printed.status ?? 1);
  }
  const document = JSON.parse(printed.stdout);
  const typesText = [
    `// Generated from ${documentFile} by \`npm run sdk:generate\`: do not edit.`,
    '',
    astToString(await openapiTS(document, { alphabetize: true })),
  ].join('\n');
  return [
    [documentFile, `${JSON.stringify(document, null, 2)}\n`],
    [typesFile, typesText],
  ];
}

const files = [
  ...(await generated([], 'sdk/openapi.json', 'sdk/src/generated/schema.ts')),
  ...(await generated(['--admin'], 'sdk/admin-openapi.json', 'sdk/src/generated/admin-schema.ts')),
];
const stale = files.filter(([file, text]) => {
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
