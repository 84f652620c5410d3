/**
 * The targets of the service, judged from the rows of the same run: each one met, missed, or not
 * measured (its scenario or database was not run).
 */
import {
  type Row,
  SERVICE,
  SERVICE_AGAIN,
  SERVICE_AT_WARN,
  SERVICE_TRACED_ALL,
  SERVICE_TRACED_SAMPLED,
} from './results.js';

interface Target {
  readonly what: string;
  /** Per database name as the rows carry it. */
  readonly judge: (rows: readonly Row[], db: string) => string;
}

const DATABASES = ['SQLite', 'PostgreSQL+Redis'] as const;
const NOT_MEASURED = 'not measured';
const verdict = (met: boolean, figure: string) => `${met ? 'met' : 'missed'}: ${figure}`;

const service = (rows: readonly Row[], db: string, scenario: string, subject = SERVICE) =>
  rows.find((r) => r.db === db && r.scenario === scenario && r.subject === subject);

/** The service's throughput with its access log over the same at LOG_LEVEL=warn, measured in the same turns. */
function accessLogRatio(rows: readonly Row[], db: string, scenario: string): number | undefined {
  const logged = service(rows, db, scenario);
  const quiet = service(rows, db, scenario, SERVICE_AT_WARN);
  return logged && quiet ? logged.rps / quiet.rps : undefined;
}

/** The service's throughput traced (`subject`) over the same untraced, measured in the same turns. */
function tracedRatio(
  rows: readonly Row[],
  db: string,
  scenario: string,
  subject: string,
): number | undefined {
  const untraced = service(rows, db, scenario);
  const traced = service(rows, db, scenario, subject);
  return untraced && traced ? traced.rps / untraced.rps : undefined;
}

/**
 * The same build in a second process over the first, author and token: a price (access log,
 * tracing) is judged beside it, since a ratio no farther from 1 than this one is within the run's
 * noise (bench/harness/service-variants.ts).
 */
function noiseFloor(rows: readonly Row[], db: string): string {
  const ratios = ['GET author', 'POST token'].map((scenario) => {
    const first = service(rows, db, scenario);
    const again = service(rows, db, scenario, SERVICE_AGAIN);
    return first && again ? (again.rps / first.rps).toFixed(2) : '–';
  });
  return `; same build, second process: author ${ratios[0]}, token ${ratios[1]}`;
}

/** A tracing target: throughput traced at least `floor` of untraced, author and token. */
function tracingTarget(subject: string, ratio: string, floor: number): Target {
  return {
    what: `tracing: throughput traced at ${ratio} ≥ ${floor.toFixed(2)} of untraced, author and token`,
    judge: (rows, db) => {
      const ratios = ['GET author', 'POST token'].map((scenario) => tracedRatio(rows, db, scenario, subject));
      if (ratios.some((r) => r === undefined)) return NOT_MEASURED;
      const [author, token] = ratios as [number, number];
      return verdict(
        Math.min(author, token) >= floor,
        `author ${author.toFixed(2)}, token ${token.toFixed(2)}${noiseFloor(rows, db)}`,
      );
    },
  };
}

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
    what: 'author: throughput ≥ 0.50 of the ceiling (SQLite), ≥ 0.35 (PostgreSQL + Redis)',
    judge: (rows, db) => {
      const r = service(rows, db, 'GET author');
      if (r?.ratioValue === undefined) return NOT_MEASURED;
      return verdict(r.ratioValue >= (db === 'SQLite' ? 0.5 : 0.35), r.ratioValue.toFixed(2));
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
    what: 'token: ≥ 3 × node-oidc-provider (SQLite), ≥ 2 × (PostgreSQL + Redis)',
    judge: (rows, db) => {
      const r = service(rows, db, 'POST token');
      if (r?.ratioValue === undefined) return NOT_MEASURED;
      return verdict(r.ratioValue >= (db === 'SQLite' ? 3 : 2), `${r.ratioValue.toFixed(2)} ×`);
    },
  },
  {
    what: 'access log: throughput with it ≥ 0.93 of LOG_LEVEL=warn, author and token',
    judge: (rows, db) => {
      const ratios = ['GET author', 'POST token'].map((scenario) => accessLogRatio(rows, db, scenario));
      if (ratios.some((r) => r === undefined)) return NOT_MEASURED;
      const [author, token] = ratios as [number, number];
      return verdict(
        Math.min(author, token) >= 0.93,
        `author ${author.toFixed(2)}, token ${token.toFixed(2)}${noiseFloor(rows, db)}`,
      );
    },
  },
  tracingTarget(SERVICE_TRACED_SAMPLED, '0.1', 0.85),
  tracingTarget(SERVICE_TRACED_ALL, '1.0', 0.7),
  {
    what: 'privacy: 1,000 accepted/s, each COMPLETED within 1 s at p99 (SQLite); ≥ 500 accepted/s (PostgreSQL + Redis)',
    judge: (rows, db) => (db === 'SQLite' ? privacyAt(rows, db, 1000, 1000) : privacyAt(rows, db, 500)),
  },
  {
    what: 'sustained: at half of capacity, throughput never below ½ and p99 and CPU per call never above 2× of the first undisturbed minute',
    judge: (rows, db) => {
      const r = rows.find((x) => x.db === db && x.sustained);
      if (!r?.sustained) return NOT_MEASURED;
      if (r.sustained === 'not judged') return 'not judged: the machine was disturbed';
      const { throughputDrift, p99Drift, cpuPerCallDrift } = r.sustained;
      return verdict(
        Math.max(throughputDrift, p99Drift, cpuPerCallDrift) <= 2,
        `drift: throughput ${throughputDrift.toFixed(2)}×, p99 ${p99Drift.toFixed(2)}×, CPU per call ${cpuPerCallDrift.toFixed(2)}×`,
      );
    },
  },
];

/** The targets as a Markdown table, one column per database. */
export function targetVerdicts(rows: readonly Row[]): string {
  const lines = TARGETS.map((t) => `| ${t.what} | ${DATABASES.map((db) => t.judge(rows, db)).join(' | ')} |`);
  return [`| target | ${DATABASES.join(' | ')} |`, '|---|---|---|', ...lines].join('\n');
}
