/** What every part of a run is given: its settings, the rows it adds, the processes it started. */
import type { ChildProcess } from 'node:child_process';
import type { Row } from './results.js';

export interface BenchSettings {
  /** The project folder: dist/cli/main.js and bench/*.ts are found under it. */
  root: string;
  /** Seconds per measurement. */
  duration: number;
  /** Turns a measurement against its reference is split into (see measureInterleaved). */
  rounds: number;
  connections: number;
  /** Reviews stored before the privacy scenario. */
  reviews: number;
  /** Offered rates of the privacy scenario, one run each. */
  privacyRates: number[];
  privacySeconds: number;
  /** The sustained scenario: seconds of its schedule, and of each window it reports. */
  sustainedSeconds: number;
  sustainedWindowSeconds: number;
  /** Folder for a V8 CPU profile of each API server run, if any. */
  profile?: string;
  /** Folder the API servers' stdout, their access log, is written to. */
  logs: string;
  postgresUrl: string;
  redisUrl: string;
}

export interface BenchContext {
  settings: BenchSettings;
  /** The results table, in the order measured. */
  rows: Row[];
  /** Text after the table and the targets, in the order written (e.g. per-second figures). */
  sections: string[];
  /** Child processes still running, killed if the run is interrupted or fails. */
  children: Set<ChildProcess>;
  /**
   * The discarding OTLP receiver's base URL (bench/otlp-sink.ts) when the run measures tracing:
   * the author and token scenarios then measure the service traced too (bench/harness/service-variants.ts).
   */
  otlpSink?: string;
}
