import type { FileProblem } from './tenancy-file.js';

/** `${env:NAME}`: the only form a file refers to the environment by. */
const REFERENCE = /\$\{env:([^}]*)\}/g;
const ONE_REFERENCE = /\$\{env:[^}]*\}/;
const WHOLLY_A_REFERENCE = /^\$\{env:[^}]*\}$/;
/** Only these may be read: a file cannot reach DATABASE_URL or a cloud's credentials this way. */
const ALLOWED_NAME = /^RPA_[A-Z0-9_]+$/;

/** A string of a file that referred to the environment, wholly or in part. */
export interface EnvReference {
  /** As outputs show it: as the file wrote it, each reference as `***`. */
  readonly shown: string;
  /** What the environment brought in. */
  readonly values: readonly string[];
  /** Whether the whole string was one reference (its type may be what its field wants). */
  readonly whole: boolean;
}

/** A document with its references replaced, where they were (by path), and what failed. */
export interface Substituted {
  readonly value: unknown;
  readonly references: ReadonlyMap<string, EnvReference>;
  readonly problems: readonly FileProblem[];
}

/** What outputs show in place of a value from the environment. */
export const MASKED_VALUE = '***';

/**
 * Replaces every `${env:RPA_…}` in the string scalars of `doc` with that variable's value. A name
 * that does not start with RPA_, or a variable that is not set, is a problem at its path; each
 * string that referred to the environment is returned by path, so outputs mask it field by field.
 */
export function substituteEnvReferences(
  doc: unknown,
  env: Readonly<Record<string, string | undefined>>,
): Substituted {
  const references = new Map<string, EnvReference>();
  const problems: FileProblem[] = [];
  const walk = (value: unknown, path: string): unknown => {
    if (typeof value === 'string') {
      const values: string[] = [];
      const replaced = value.replace(REFERENCE, (_all, name: string) => {
        if (!ALLOWED_NAME.test(name)) {
          problems.push({ path, message: `\${env:${name}}: only variables named RPA_… may be referred to` });
          return '';
        }
        const found = env[name];
        if (found === undefined) {
          problems.push({ path, message: `\${env:${name}}: the variable is not set` });
          return '';
        }
        if (found !== '') values.push(found);
        return found;
      });
      if (ONE_REFERENCE.test(value))
        references.set(path, {
          shown: value.replace(REFERENCE, MASKED_VALUE),
          values,
          whole: WHOLLY_A_REFERENCE.test(value),
        });
      return replaced;
    }
    if (Array.isArray(value)) return value.map((v, i) => walk(v, `${path}[${i}]`));
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, walk(v, path ? `${path}.${k}` : k)]),
      );
    return value;
  };
  const value = walk(doc, '');
  return { value, references, problems };
}
