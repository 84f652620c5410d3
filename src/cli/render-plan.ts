import { type EnvMask, maskPlan } from '../domain/mask-plan.js';
import type { PlanItem } from '../domain/plan-items.js';
import { describeProblem, type TenancyFile } from '../domain/tenancy-file.js';
import type { TenancyPlan } from '../domain/tenancy-plan.js';

// One rendering of a plan and an apply's result, fed by the admin API's JSON whether it answered
// in this process or over HTTP: `rpa config` prints and exits the same either way.

const value = (v: unknown): string =>
  Array.isArray(v) ? `[${v.join(', ')}]` : v === null ? 'none' : String(v);

function line(sign: string, item: PlanItem): string {
  const fields = Object.entries(item.fields ?? {})
    .filter(([name]) => name !== 'rotate')
    .map(([name, c]) => `${name} ${value(c.from)} -> ${value(c.to)}`);
  const rotate = item.fields?.rotate;
  if (rotate)
    fields.push(`rotate ${value(rotate.from)} -> ${value(rotate.to)}${item.rotate ? ': new secret' : ''}`);
  return `  ${sign} ${item.kind} ${item.key}${fields.length > 0 ? `: ${fields.join(', ')}` : ''}`;
}

/** The plan for people: one line a step, revocations apart, then notes and problems. */
function planText(plan: TenancyPlan): string {
  const out = [`Plan for ${plan.environment}, stack ${plan.stack}, at revision ${plan.revision}:`];
  const steps = plan.creations.length + plan.changes.length + plan.adoptions.length;
  if (steps + plan.revocations.length + plan.problems.length === 0) out.push('  nothing to change');
  out.push(...plan.creations.map((i) => line('+', i)));
  out.push(...plan.adoptions.map((i) => line('=', { ...i, key: `${i.key} (adopted)` })));
  out.push(...plan.changes.map((i) => line('~', i)));
  if (plan.revocations.length > 0) {
    out.push('Revocations (--prune):');
    out.push(...plan.revocations.map((i) => line('-', i)));
  }
  if (plan.notes.length > 0) out.push('Notes:', ...plan.notes.map((n) => `  ${n}`));
  if (plan.problems.length > 0)
    out.push('Problems (nothing can be applied):', ...plan.problems.map((p) => `  ${describeProblem(p)}`));
  out.push(
    `${plan.creations.length} to create, ${plan.changes.length} to change, ${plan.adoptions.length} to adopt, ${plan.revocations.length} to revoke.`,
  );
  return out.join('\n');
}

/** How a plan is shown: what of it came from the environment (from the file read) is masked. */
export interface PlanMasking {
  readonly file: TenancyFile;
  readonly mask: EnvMask;
}

/** What `rpa config diff` prints: the plan as text, or its JSON with --json; masked either way. */
export function renderPlan(plan: TenancyPlan, options: PlanMasking & { json: boolean }): string {
  const shown = maskPlan(plan, options.file, options.mask);
  return `${options.json ? JSON.stringify(shown, null, 2) : planText(shown)}\n`;
}

/** What `rpa config apply` prints once applied: the plan applied and its id; never a secret. */
export function renderApplied(plan: TenancyPlan, applyId: string, masking: PlanMasking): string {
  return `${planText(maskPlan(plan, masking.file, masking.mask))}\nApplied (apply ${applyId}).\n`;
}
