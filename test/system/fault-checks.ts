import type { Answer } from './load.js';

/** The calls whose answers must be 2xx when nothing is wrong (the limited passkey's may be 429). */
export const MAIN_ROUTES: readonly string[] = ['token', 'author', 'create', 'list', 'forget', 'access'];
export const LIMITED_ROUTE = 'limited';
export const READY_ROUTE = 'readyz';

export type Dependency = 'database' | 'redis';

/** One fault's timeline: filed and measured from `startedAt`, injected at `faultAt`, undone at `restoredAt`. */
export interface PhaseTimes {
  readonly startedAt: number;
  readonly faultAt: number;
  readonly restoredAt: number;
  readonly endedAt: number;
}

const isFailure = (a: Answer) => typeof a.status !== 'number';

/**
 * An answer a client can act on: a normal answer (below 500), or 503 with `Retry-After`. A probe
 * (`/readyz`) may answer 503 without it. Anything else, or none within the bound, is not.
 */
function isAcceptable(a: Answer): boolean {
  if (typeof a.status !== 'number') return false;
  if (a.status < 500) return true;
  return a.status === 503 && (a.retryAfter || a.route === READY_ROUTE);
}

export function within(answers: readonly Answer[], from: number, to: number): Answer[] {
  return answers.filter((a) => a.at >= from && a.at <= to);
}

/** `2xx/4xx/5xx/failed`: failed is no answer at all (refused, reset, past the bound). */
export function statusCounts(answers: readonly Answer[]): string {
  const n = (test: (a: Answer) => boolean) => answers.filter(test).length;
  const band = (lo: number) => (a: Answer) =>
    typeof a.status === 'number' && a.status >= lo && a.status < lo + 100;
  return `${n(band(200))}/${n(band(400))}/${n(band(500))}/${n(isFailure)}`;
}

/** The unacceptable answers, grouped as `count x instance route status (first body)`. */
export function describeUnacceptable(answers: readonly Answer[]): string[] {
  const groups = new Map<string, { count: number; example: string }>();
  for (const a of answers) {
    if (isAcceptable(a)) continue;
    const status = a.status === 503 ? '503 without Retry-After' : String(a.status);
    const key = `${a.instance} ${a.route} ${status}`;
    const g = groups.get(key) ?? { count: 0, example: a.body.replace(/\s+/g, ' ').slice(0, 160) };
    g.count += 1;
    groups.set(key, g);
  }
  return [...groups].map(([key, g]) => `${g.count} x ${key}: ${g.example}`);
}

/**
 * When the main calls came back: the send time from which every main call, up to `now`, was 2xx,
 * provided that stretch lasts `windowMs` and each instance answered in it; null while not.
 */
export function recoveredAt(
  answers: readonly Answer[],
  options: { since: number; now: number; windowMs: number; instances: readonly string[] },
): number | null {
  const main = answers
    .filter((a) => MAIN_ROUTES.includes(a.route) && a.at >= options.since)
    .sort((x, y) => x.at - y.at);
  let start = options.since;
  for (const a of main) if (!(typeof a.status === 'number' && a.status < 300)) start = a.at + 1;
  if (options.now - start < options.windowMs) return null;
  const stretch = main.filter((a) => a.at >= start);
  return options.instances.every((name) => stretch.some((a) => a.instance === name)) ? start : null;
}

/** Calls admitted (2xx) per window of the limited passkey, by the answering server's clock. */
export function admissions(answers: readonly Answer[]): {
  perMinute: Map<string, number>;
  perDay: Map<string, number>;
} {
  const perMinute = new Map<string, number>();
  const perDay = new Map<string, number>();
  for (const a of answers) {
    if (a.route !== LIMITED_ROUTE || typeof a.status !== 'number' || a.status >= 300 || !a.date) continue;
    const iso = new Date(a.date).toISOString();
    perMinute.set(iso.slice(0, 16), (perMinute.get(iso.slice(0, 16)) ?? 0) + 1);
    perDay.set(iso.slice(0, 10), (perDay.get(iso.slice(0, 10)) ?? 0) + 1);
  }
  return { perMinute, perDay };
}

/** The `checks` a `/readyz` answer names, if its body has them. */
function readinessChecks(a: Answer): Record<string, string> | null {
  try {
    const body = JSON.parse(a.body) as { checks?: Record<string, string> };
    return body.checks && typeof body.checks === 'object' ? body.checks : null;
  } catch {
    return null;
  }
}

/**
 * What `/readyz` of one instance got wrong around a fault: it must stay 200, naming the dependency
 * as down, while that dependency is away (a shared dependency fails no instance's readiness by
 * default, docs/operations.md), and 200 with every dependency up once it is back.
 */
export function readinessProblems(
  answers: readonly Answer[],
  options: { instance: string; dependency: Dependency | null; times: PhaseTimes },
): string[] {
  const { instance, dependency, times } = options;
  const probes = answers.filter((a) => a.route === READY_ROUTE && a.instance === instance);
  const problems: string[] = [];
  if (dependency) {
    const during = within(probes, times.faultAt, times.restoredAt);
    const named = during.filter((a) => a.status === 200 && readinessChecks(a)?.[dependency] === 'down');
    if (named.length === 0) {
      const seen = [...new Set(during.map((a) => `${a.status} ${a.body.slice(0, 120)}`))];
      problems.push(
        `${instance} /readyz never answered 200 with checks.${dependency} = 'down' while ${dependency} was down (answered: ${seen.join('; ') || 'nothing'})`,
      );
    }
  }
  const afterwards = within(probes, times.restoredAt, times.endedAt);
  const ready = afterwards.filter((a) => {
    const checks = readinessChecks(a);
    return a.status === 200 && checks?.database === 'up' && checks.redis === 'up';
  });
  if (ready.length === 0) {
    const last = afterwards.at(-1);
    problems.push(
      `${instance} /readyz did not answer 200 with checks {database: 'up', redis: 'up'} after recovery (last: ${last ? `${last.status} ${last.body.slice(0, 120)}` : 'nothing'})`,
    );
  }
  return problems;
}
