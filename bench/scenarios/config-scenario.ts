/**
 * The tenancy as a file (docs/configuration-as-code.md) at the size of a large installation:
 * 1,000 clients, 1,000 applications and 4,000 passkeys. Times what an operator's pipeline runs, as
 * it runs them (the `rpa` CLI in process, start-up included): the first diff (everything to
 * create), the apply that creates it, the nightly drift check that finds nothing, and a change of
 * a tenth of the passkeys' limits, diffed and applied.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchContext } from '../harness/bench-context.js';
import { log } from '../harness/log.js';
import type { Target } from '../harness/targets.js';

const CLIENTS = 1000;
const PASSKEYS = ['response-a', 'response-b', 'privacy-a', 'privacy-b'];
const DIFF_TARGET_S = 5;
const APPLY_TARGET_S = 30;

/** The file, in YAML as an operator writes it; `changed` applications get another rate limit. */
function tenancyFile(changed = 0): string {
  const lines = ['apiVersion: rpa/v1', 'environment: production', 'stack: bench', 'clients:'];
  const n = (i: number) => String(i).padStart(4, '0');
  for (let i = 0; i < CLIENTS; i++) lines.push(`  - name: Partner-${n(i)}`);
  lines.push('applications:');
  for (let i = 0; i < CLIENTS; i++) {
    lines.push(`  - name: partner-${n(i)}`, `    clientNames: [Partner-${n(i)}]`, '    passkeys:');
    for (const name of PASSKEYS) {
      lines.push(`      - name: ${name}`, `        api: ${name.split('-')[0]}`);
      lines.push(`        rateLimitPerMinute: ${i < changed ? 200 : 100}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

interface Step {
  what: string;
  seconds: number;
  exit: number | null;
}

export async function configScenario(ctx: BenchContext, target: Target): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'rpa-bench-config-'));
  const steps: Step[] = [];
  const run = (what: string, expected: number, ...argv: string[]) => {
    const started = performance.now();
    const r = spawnSync(process.execPath, [join(ctx.settings.root, 'dist/cli/main.js'), 'config', ...argv], {
      env: { ...process.env, ...target.env },
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    const seconds = (performance.now() - started) / 1000;
    if (r.status !== expected) {
      throw new Error(
        `rpa config ${argv[0]}: exit ${r.status}, expected ${expected}: ${r.stderr.slice(0, 2000)}`,
      );
    }
    steps.push({ what, seconds, exit: r.status });
  };
  try {
    const file = join(dir, 'tenancy.yaml');
    writeFileSync(file, tenancyFile());
    log(
      `${target.name} config: ${CLIENTS} clients, ${CLIENTS} applications, ${CLIENTS * PASSKEYS.length} passkeys`,
    );
    run('diff, everything to create', 2, 'diff', file);
    run('apply, everything created', 0, 'apply', file, '--secrets-out', join(dir, 'secrets.json'));
    run('diff, nothing changed (the nightly drift check)', 0, 'diff', file);
    writeFileSync(file, tenancyFile(CLIENTS / 10));
    run('diff, a tenth of the applications changed', 2, 'diff', file);
    run('apply, a tenth of the applications changed', 0, 'apply', file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const diffs = steps.filter((s) => s.what.startsWith('diff'));
  const applies = steps.filter((s) => s.what.startsWith('apply'));
  const worst = (of: Step[]) => Math.max(...of.map((s) => s.seconds));
  const verdict = (limit: number, of: Step[]) =>
    `${worst(of) <= limit ? 'met' : 'missed'}: slowest ${worst(of).toFixed(1)} s`;
  ctx.sections.push(
    [
      `Configuration as code on ${target.name}: ${CLIENTS} clients, ${CLIENTS} applications, ${CLIENTS * PASSKEYS.length} passkeys; each step is one \`rpa config\` process, start-up included.`,
      '',
      '| step | seconds | exit |',
      '|---|---:|---:|',
      ...steps.map((s) => `| ${s.what} | ${s.seconds.toFixed(2)} | ${s.exit} |`),
      '',
      `Targets: diff ≤ ${DIFF_TARGET_S} s, ${verdict(DIFF_TARGET_S, diffs)}; apply ≤ ${APPLY_TARGET_S} s, ${verdict(APPLY_TARGET_S, applies)}.`,
    ].join('\n'),
  );
}
