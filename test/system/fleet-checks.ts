import { LIMITED_ROUTE, statusCounts, within } from './fault-checks.js';
import type { Answer } from './load.js';

/** What one scenario got wrong, and one line of what was seen, for the suite's table. */
export interface ScenarioResult {
  readonly name: string;
  readonly seen: string;
  readonly problems: readonly string[];
}

/** A process of the fleet that ended, on purpose or not. */
export interface FleetExit {
  readonly name: string;
  readonly at: number;
  readonly how: string;
  readonly onPurpose: boolean;
}

function isJson(body: string): boolean {
  try {
    JSON.parse(body);
    return true;
  } catch {
    return false;
  }
}

/**
 * An answer the service wrote: every API answers JSON (a problem document, a JSON:API document,
 * the OAuth error shape). No answer at all, or HAProxy's own page (HTML), is a lost call.
 */
function isServiceAnswer(a: Answer): boolean {
  return typeof a.status === 'number' && isJson(a.body);
}

const lost = (answers: readonly Answer[]) => answers.filter((a) => !isServiceAnswer(a));
const status500 = (answers: readonly Answer[]) =>
  answers.filter((a) => isServiceAnswer(a) && a.status === 500);
/** 503s that are not the service's own: HAProxy's page, or one without `Retry-After`. */
const foreign503 = (answers: readonly Answer[]) =>
  answers.filter((a) => a.status === 503 && !(isServiceAnswer(a) && a.retryAfter));
/** Answers that took longer than `ms` (calls never answered are counted as lost instead). */
const slower = (answers: readonly Answer[], ms: number) =>
  answers.filter((a) => typeof a.status === 'number' && a.ms > ms);

/** `n x route status (ms): body`, one line per kind, the first body of each as example. */
export function grouped(answers: readonly Answer[]): string {
  const groups = new Map<string, { count: number; example: string; maxMs: number }>();
  for (const a of answers) {
    const key = `${a.route} ${a.status}${a.status === 503 && !a.retryAfter ? ' without Retry-After' : ''}`;
    // Tokens and passkeys are the suite's own, but a failure message needs none of them.
    const example = a.body
      .replace(/rpa_(at|pk)_[\w-]+/g, 'rpa_$1_…')
      .replace(/\s+/g, ' ')
      .slice(0, 140);
    const g = groups.get(key) ?? { count: 0, example, maxMs: 0 };
    g.count += 1;
    g.maxMs = Math.max(g.maxMs, a.ms);
    groups.set(key, g);
  }
  return [...groups]
    .map(([key, g]) => `\n    ${g.count} x ${key} (up to ${g.maxMs} ms): ${g.example}`)
    .join('');
}

/** `N calls, 2xx/4xx/5xx/failed a/b/c/d, slowest X ms`. */
export function summary(answers: readonly Answer[]): string {
  const slowest = Math.max(0, ...answers.map((a) => a.ms));
  return `${answers.length} calls, 2xx/4xx/5xx/failed ${statusCounts(answers)}, slowest ${slowest} ms`;
}

/** One problem line per rule the answers break; `rules` name what must hold. */
export function answerProblems(
  answers: readonly Answer[],
  rules: { noneLost?: boolean; no500?: boolean; own503?: boolean; withinMs?: number },
): string[] {
  const problems: string[] = [];
  const check = (rule: boolean | undefined, bad: readonly Answer[], what: string) => {
    if (rule && bad.length > 0)
      problems.push(`${bad.length} of ${answers.length} calls ${what}:${grouped(bad)}`);
  };
  check(rules.noneLost, lost(answers), 'lost (no answer, or not the service that answered)');
  check(rules.no500, status500(answers), 'answered 500');
  check(rules.own503, foreign503(answers), "answered 503 not the service's own (JSON with Retry-After)");
  if (rules.withinMs !== undefined)
    check(true, slower(answers, rules.withinMs), `answered after more than ${rules.withinMs} ms`);
  return problems;
}

/** The main calls (all but the limited passkey's) in a window that were not 2xx. */
export function notFine(answers: readonly Answer[], from: number, to: number): Answer[] {
  return within(answers, from, to).filter(
    (a) => a.route !== LIMITED_ROUTE && !(typeof a.status === 'number' && a.status < 300),
  );
}

/** The processes that exited, not on purpose, in a window. */
export function exitProblems(exits: readonly FleetExit[], from: number, to: number): string[] {
  return exits
    .filter((e) => !e.onPurpose && e.at >= from && e.at <= to)
    .map((e) => `${e.name} exited (${e.how})`);
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
