import {
  admissions,
  type Dependency,
  describeUnacceptable,
  type PhaseTimes,
  READY_ROUTE,
  readinessProblems,
  statusCounts,
  within,
} from './fault-checks.js';
import type { Answer } from './load.js';
import type { Accepted } from './system-traffic.js';

export interface ProcessExit {
  readonly name: string;
  readonly at: number;
  readonly phase: string;
  readonly how: string;
  readonly onPurpose: boolean;
}

export interface Assessment {
  /** fault, requests, 2xx/4xx/5xx/failed, accepted not completed, half-erased people, admitted vs limit, s to recover */
  readonly row: readonly string[];
  readonly problems: readonly string[];
}

export const TABLE_HEADER = [
  'fault',
  'requests',
  '2xx/4xx/5xx/failed',
  'accepted not completed',
  'half-erased people',
  'admitted vs limit',
  's to recover',
];

/** Everything one fault got wrong, from what was recorded while it ran and after. */
export function assessFault(input: {
  fault: string;
  times: PhaseTimes;
  dependency: Dependency | null;
  answers: readonly Answer[];
  polls: readonly Answer[];
  exits: readonly ProcessExit[];
  instances: readonly string[];
  accepted: readonly Accepted[];
  /** Reviews left of each person whose forget request was filed just before the fault (-1: unknown). */
  left: ReadonlyMap<string, number>;
  reviewsPerPerson: number;
  limit: { perMinute: number; perDay: number };
  recoveredAt: number | null;
  /** When the wait for this fault's privacy requests began. */
  completionFrom: number;
  bounds: { recoveryMs: number; windowMs: number; completionMs: number };
}): Assessment {
  const { times, limit } = input;
  const problems: string[] = [];
  for (const e of input.exits.filter((x) => !x.onPurpose))
    problems.push(
      e.at >= times.startedAt
        ? `${e.name} exited (${e.how})`
        : `${e.name} was not running when the fault began: it exited during "${e.phase}"`,
    );

  const answers = within(input.answers, times.faultAt, times.endedAt);
  const load = answers.filter((a) => a.route !== READY_ROUTE);
  for (const line of describeUnacceptable([
    ...answers,
    ...within(input.polls, times.startedAt, times.endedAt),
  ]))
    problems.push(`unacceptable answers: ${line}`);

  if (input.recoveredAt === null)
    problems.push(
      `main calls not all 2xx for ${input.bounds.windowMs / 1000} s within ${input.bounds.recoveryMs / 1000} s of recovery`,
    );

  // Those accepted once the wait for completion began are checked at the end of the suite.
  const mine = input.accepted.filter((r) => r.phase === input.fault && r.at <= input.completionFrom);
  const pending = mine.filter((r) => !r.completed);
  if (pending.length > 0)
    problems.push(
      `${pending.length} of ${mine.length} accepted privacy requests not COMPLETED within ${input.bounds.completionMs / 1000} s`,
    );
  const notErased = [...input.left].filter(([, n]) => n !== 0);
  for (const [email, n] of notErased)
    problems.push(
      n < 0
        ? `the reviews of ${email.replace(/@.*/, '@…')} could not be counted`
        : `${email.replace(/@.*/, '@…')} still has ${n} of ${input.reviewsPerPerson} reviews`,
    );

  // The windows this fault's calls fell in, and the day so far.
  const admitted = admissions(input.answers.filter((a) => a.at <= times.endedAt));
  const firstMinute = new Date(times.startedAt).toISOString().slice(0, 16);
  const minutes = [...admitted.perMinute].filter(([m]) => m >= firstMinute);
  const maxMinute = Math.max(0, ...minutes.map(([, n]) => n));
  const today = Math.max(0, ...admitted.perDay.values());
  for (const [minute, n] of minutes)
    if (n > limit.perMinute)
      problems.push(`limited passkey: ${n} calls admitted in minute ${minute}Z (limit ${limit.perMinute})`);
  if (today > limit.perDay)
    problems.push(`limited passkey: ${today} calls admitted today (quota ${limit.perDay})`);

  for (const instance of input.instances)
    problems.push(...readinessProblems(input.answers, { instance, dependency: input.dependency, times }));

  const recovery =
    input.recoveredAt === null
      ? `> ${input.bounds.recoveryMs / 1000}`
      : (Math.max(0, input.recoveredAt - times.restoredAt) / 1000).toFixed(1);
  return {
    problems,
    row: [
      input.fault,
      String(load.length),
      statusCounts(load),
      String(pending.length),
      String(notErased.filter(([, n]) => n > 0 && n < input.reviewsPerPerson).length),
      `${maxMinute}/${limit.perMinute} per min, ${today}/${limit.perDay} per day`,
      recovery,
    ],
  };
}
