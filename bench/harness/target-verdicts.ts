/**
 * The targets of the service, judged from the rows of the same run: each one met, missed, or not
 * measured (its scenario or database was not run).
 */
import type { Row } from './results.js';

interface Target {
  readonly what: string;
  /** Per database name as the rows carry it. */
  readonly judge: (rows: readonly Row[], db: string) => string;
}

const DATABASES = ['SQLite', 'PostgreSQL+Redis'] as const;
const NOT_MEASURED = 'not measured';
const verdict = (met: boolean, figure: string) => `${met ? 'met' : 'missed'}: ${figure}`;

const service = (rows: readonly Row[], db: string, scenario: string) =>
  rows.find((r) => r.db === db && r.scenario === scenario && r.subject === 'this service');

/** A privacy run counts at an offered rate when every request was accepted at ~that rate. */
const PRIVACY_RATE_TOLERANCE = 0.98;

function privacyAt(rows: readonly Row[], db: string, rate: number, completionMs?: number): string {
  const runs = rows.filter((r) => r.db === db && r.privacy);
  if (runs.length === 0) return NOT_MEASURED;
  const sustains = (r: Row) =>
    r.privacy !== undefined &&
    r.privacy.accepted === r.privacy.sent &&
    r.rps >= rate * PRIVACY_RATE_TOLERANCE &&
    (completionMs === undefined || r.privacy.completionP99 < completionMs);
  const best = runs.filter(sustains).sort((a, b) => b.rps - a.rps)[0];
  const shown = (r: Row) =>
    `${r.rps}/s accepted of ${r.privacy?.offeredPerSecond}/s offered` +
    (completionMs === undefined ? '' : `, p99 to COMPLETED ${r.privacy?.completionP99} ms`);
  if (best) return verdict(true, shown(best));
  const fastest = [...runs].sort((a, b) => b.rps - a.rps)[0] as Row;
  return verdict(false, shown(fastest));
}

const TARGETS: readonly Target[] = [
  {
    what: 'author: throughput ≥ 0.70 of the ceiling (SQLite), ≥ 0.35 (PostgreSQL + Redis)',
    judge: (rows, db) => {
      const r = service(rows, db, 'GET author');
      if (r?.ratioValue === undefined) return NOT_MEASURED;
      return verdict(r.ratioValue >= (db === 'SQLite' ? 0.7 : 0.35), r.ratioValue.toFixed(2));
    },
  },
  {
    what: 'author: p99 < 10 ms at the run’s connections',
    judge: (rows, db) => {
      const r = service(rows, db, 'GET author');
      return r ? verdict(r.p99 < 10, `${r.p99} ms`) : NOT_MEASURED;
    },
  },
  {
    what: 'token: ≥ 4 × node-oidc-provider (SQLite), ≥ 2 × (PostgreSQL + Redis)',
    judge: (rows, db) => {
      const r = service(rows, db, 'POST token');
      if (r?.ratioValue === undefined) return NOT_MEASURED;
      return verdict(r.ratioValue >= (db === 'SQLite' ? 4 : 2), `${r.ratioValue.toFixed(2)} ×`);
    },
  },
  {
    what: 'privacy: 1,000 accepted/s, each COMPLETED within 1 s at p99 (SQLite); ≥ 500 accepted/s (PostgreSQL + Redis)',
    judge: (rows, db) => (db === 'SQLite' ? privacyAt(rows, db, 1000, 1000) : privacyAt(rows, db, 500)),
  },
];

/** The targets as a Markdown table, one column per database. */
export function targetVerdicts(rows: readonly Row[]): string {
  const lines = TARGETS.map((t) => `| ${t.what} | ${DATABASES.map((db) => t.judge(rows, db)).join(' | ')} |`);
  return [`| target | ${DATABASES.join(' | ')} |`, '|---|---|---|', ...lines].join('\n');
}
