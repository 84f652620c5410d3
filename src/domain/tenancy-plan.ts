import { groupBy } from './group-by.js';
import { planApplication } from './plan-application.js';
import { claim, type PlanItem, type PlanOptions, type PlanSink } from './plan-items.js';
import type { FileProblem, TenancyFile } from './tenancy-file.js';
import { normalizedUrl, passkeyKey, webhookKey } from './tenancy-file.js';
import type { ApplicationState, PasskeyState, TenancyState, WebhookState } from './tenancy-state.js';

/**
 * What an apply would do to an environment, computed at one tenancy revision. Revocations are
 * listed apart, and only a prune makes any; `problems` (conflicts, too many deletions) stop an
 * apply; `notes` change nothing.
 */
export interface TenancyPlan {
  readonly environment: TenancyFile['environment'];
  readonly stack: string;
  readonly revision: number;
  readonly creations: readonly PlanItem[];
  readonly changes: readonly PlanItem[];
  readonly adoptions: readonly PlanItem[];
  readonly revocations: readonly PlanItem[];
  readonly notes: readonly string[];
  readonly problems: readonly FileProblem[];
}

/**
 * A plan as computed, with what its apply needs beyond what is shown: the existing application
 * each of the file's applications works on (its own, or the one it adopts), its id by name.
 */
export interface ComputedTenancyPlan extends TenancyPlan {
  readonly applicationIds: ReadonlyMap<string, string>;
}

/** Whether applying the plan would change anything: what makes `rpa config diff` exit 2. */
export function planChangesSomething(plan: TenancyPlan): boolean {
  return plan.creations.length + plan.changes.length + plan.adoptions.length + plan.revocations.length > 0;
}

/** Desired (the file) against current (the environment at its revision): the ordered steps between. */
export function planTenancy(
  file: TenancyFile,
  state: TenancyState,
  options: PlanOptions,
): ComputedTenancyPlan {
  const sink: PlanSink = { creations: [], changes: [], adoptions: [], problems: [] };
  const notes: string[] = [];
  const { stack } = file;
  if (file.environment !== state.environment)
    sink.problems.push({
      path: 'environment',
      message: `the file is for ${file.environment}, not ${state.environment}`,
    });
  const clients = new Map(state.clients.map((c) => [c.name, c]));
  (file.clients ?? []).forEach((spec, i) => {
    const r = claim(
      clients.has(spec.name) ? [clients.get(spec.name) as (typeof state.clients)[number]] : [],
      stack,
      options.adopt,
    );
    if (r.problem) sink.problems.push({ path: `clients[${i}]`, message: `client ${spec.name} ${r.problem}` });
    else if (r.adopting) sink.adoptions.push({ kind: 'client', key: spec.name, id: r.found?.id as string });
    else if (!r.found) sink.creations.push({ kind: 'client', key: spec.name });
  });
  const named = new Set((file.clients ?? []).map((c) => c.name));
  const grantable = new Set([...named, ...clients.keys()]);
  for (const c of state.clients)
    if (c.managedBy === stack && !named.has(c.name))
      notes.push(`client ${c.name} is not in the file; clients are never deleted: it stays as it is`);

  const applications = groupBy(state.applications, (a) => a.name);
  const passkeys = groupBy(state.passkeys, (p) => p.applicationId);
  const webhooks = groupBy(state.webhooks, (w) => w.applicationId);
  const kept = new Map<string, ApplicationState>();
  const wanted = new Map<string, { passkeys: Set<string>; urls: Set<string> }>();
  (file.applications ?? []).forEach((spec, i) => {
    const found = planApplication({
      spec,
      at: `applications[${i}]`,
      stack,
      options,
      sink,
      applications,
      passkeys,
      webhooks,
      clients: grantable,
    });
    if (found) kept.set(found.id, found);
  });
  for (const spec of file.applications ?? [])
    wanted.set(spec.name, {
      passkeys: new Set((spec.passkeys ?? []).map((p) => p.name)),
      urls: new Set((spec.webhooks ?? []).map((w) => normalizedUrl(w.url))),
    });
  const revocations = unwanted(state, stack, kept, wanted);
  if (!options.prune && revocations.length > 0) {
    notes.push(`${revocations.length} object(s) of stack ${stack} are not in the file; --prune revokes them`);
  }
  if (options.prune && revocations.length > options.maxDeletes)
    sink.problems.push({
      path: '',
      message: `the plan revokes ${revocations.length} objects, more than --max-deletes ${options.maxDeletes}: nothing is applied`,
    });
  return {
    environment: file.environment,
    stack,
    revision: state.revision,
    creations: sink.creations,
    changes: sink.changes,
    adoptions: sink.adoptions,
    revocations: options.prune ? revocations : [],
    notes,
    problems: sink.problems,
    applicationIds: new Map([...kept.values()].map((a) => [a.name, a.id])),
  };
}

/**
 * This stack's objects the file no longer names: its applications, and the passkeys and endpoints
 * of the applications it keeps. An application revoked takes every passkey and endpoint it has,
 * whoever made them: each is listed (and counted against --max-deletes) before it.
 */
function unwanted(
  state: TenancyState,
  stack: string,
  kept: ReadonlyMap<string, ApplicationState>,
  wanted: ReadonlyMap<string, { passkeys: Set<string>; urls: Set<string> }>,
): PlanItem[] {
  const items: PlanItem[] = [];
  const apps = state.applications.filter((a) => a.managedBy === stack && !wanted.has(a.name));
  const passkeysOf = groupBy(state.passkeys, (p) => p.applicationId);
  const webhooksOf = groupBy(state.webhooks, (w) => w.applicationId);
  for (const a of apps) {
    for (const p of passkeysOf.get(a.id) ?? [])
      items.push({ kind: 'passkey', key: passkeyKey(a.name, p.name ?? p.id), id: p.id });
    for (const w of webhooksOf.get(a.id) ?? [])
      items.push({ kind: 'webhook', key: webhookKey(a.name, w.url), id: w.id });
    items.push({ kind: 'application', key: a.name, id: a.id });
  }
  const keptApp = (o: PasskeyState | WebhookState) => kept.get(o.applicationId);
  for (const p of state.passkeys) {
    const app = keptApp(p);
    if (p.managedBy !== stack || !app) continue;
    if (p.name === null || !wanted.get(app.name)?.passkeys.has(p.name))
      items.push({ kind: 'passkey', key: passkeyKey(app.name, p.name ?? p.id), id: p.id });
  }
  for (const w of state.webhooks) {
    const app = keptApp(w);
    if (w.managedBy !== stack || !app) continue;
    if (!wanted.get(app.name)?.urls.has(w.url))
      items.push({ kind: 'webhook', key: webhookKey(app.name, w.url), id: w.id });
  }
  return items;
}
