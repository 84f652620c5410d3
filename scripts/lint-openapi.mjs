#!/usr/bin/env node
// Lints the OpenAPI documents the server serves (public and admin) (as `rpa openapi` prints it) with Redocly CLI and
// the rules in redocly.yaml; exits non-zero on any problem.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'rpa-openapi-'));
const file = join(dir, 'openapi.json');
// No telemetry or update check: CI machines may have no network, and nothing should leave them.
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };

function run(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit', env });
  if (result.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    process.exit(result.status ?? 1);
  }
}

// The public API's document, then the admin listener's.
const adminFile = join(dir, 'admin-openapi.json');
run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'openapi', '--out', file]);
run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'openapi', '--admin', '--out', adminFile]);
run(join('node_modules', '.bin', 'redocly'), ['lint', file, adminFile, '--config', 'redocly.yaml']);
rmSync(dir, { recursive: true, force: true });
