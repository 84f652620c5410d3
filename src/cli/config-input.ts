import { parseDocument } from 'yaml';
import { substituteEnvReferences } from '../domain/env-references.js';
import { type EnvMask, envMask, maskProblem } from '../domain/mask-plan.js';
import {
  checkTenancyFile,
  describeProblem,
  type FileProblem,
  type TenancyFile,
} from '../domain/tenancy-file.js';
import { configFileProblems, convertConfigFile } from '../http/admin/config-file-schema.js';
import { CliError } from './cli-error.js';
import type { CliIo } from './cli-io.js';
import { openInputFile } from './open-input-file.js';

/** A configuration file read, its `${env:…}` references replaced, and checked. */
export interface ConfigInput {
  readonly path: string;
  readonly file: TenancyFile;
  /** Where the environment brought values in: every output masks them. */
  readonly mask: EnvMask;
}

/** A file that is not a valid configuration: its problems, each on its own line, then exit 1. */
export class InvalidConfigFile extends CliError {
  constructor(
    readonly path: string,
    readonly problems: readonly FileProblem[],
    readonly mask: EnvMask,
  ) {
    super(`${path} is not a valid configuration file`);
  }
}

/**
 * Reads a configuration file (YAML, or JSON, which is YAML too), replaces its `${env:RPA_…}`
 * references and checks it offline: its schema, then what the schema cannot say (duplicates,
 * unknown client names). Throws InvalidConfigFile naming every problem found.
 */
export async function readConfigInput(io: CliIo, path: string): Promise<ConfigInput> {
  const handle = await openInputFile(path);
  let text: string;
  try {
    text = await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) {
    const problems = doc.errors.map((e) => ({
      path: '',
      // yaml's own message ends with where: "… at line 4, column 1:".
      message: (e.message.split('\n')[0] ?? e.message).replace(/:$/, ''),
    }));
    throw new InvalidConfigFile(path, problems, { at: new Map() });
  }
  const substituted = substituteEnvReferences(doc.toJS(), io.env);
  const whole = [...substituted.references].filter(([, r]) => r.whole).map(([path]) => path);
  const value = convertConfigFile(substituted.value, new Set(whole));
  // A value left empty by a reference that failed has no other problem worth naming.
  const failed = new Set(substituted.problems.map((p) => p.path));
  const problems = [...substituted.problems, ...configFileProblems(value).filter((p) => !failed.has(p.path))];
  if (problems.length === 0) problems.push(...checkTenancyFile(value as TenancyFile));
  const mask = envMask(value, substituted.references);
  if (problems.length > 0) throw new InvalidConfigFile(path, problems, mask);
  return { path, file: value as TenancyFile, mask };
}

/** Writes each problem of an invalid file as one line on stderr, masked, and fails the command. */
export function reportInvalidFile(io: CliIo, err: InvalidConfigFile): void {
  for (const p of err.problems)
    io.stderr.write(`rpa: ${err.path}: ${describeProblem(maskProblem(p, err.mask))}\n`);
  io.exitCode = 1;
}
