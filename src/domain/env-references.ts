import type { FileProblem } from './tenancy-file.js';

/** `${env:NAME}`: the only form a file refers to the environment by. */
const REFERENCE = /\$\{env:([^}]*)\}/g;
/** Only these may be read: a file cannot reach DATABASE_URL or a cloud's credentials this way. */
const ALLOWED_NAME = /^RPA_[A-Z0-9_]+$/;

/** A document with its references replaced, the values they brought (to mask), and what failed. */
export interface Substituted {
  readonly value: unknown;
  readonly masked: readonly string[];
  readonly problems: readonly FileProblem[];
}

/**
 * Replaces every `${env:RPA_…}` in the string scalars of `doc` with that variable's value. A name
 * that does not start with RPA_, or a variable that is not set, is a problem at its path; the
 * values brought in are returned so every output can mask them.
 */
export function substituteEnvReferences(
  doc: unknown,
  env: Readonly<Record<string, string | undefined>>,
): Substituted {
  const masked = new Set<string>();
  const problems: FileProblem[] = [];
  const walk = (value: unknown, path: string): unknown => {
    if (typeof value === 'string') {
      return value.replace(REFERENCE, (_all, name: string) => {
        if (!ALLOWED_NAME.test(name)) {
          problems.push({ path, message: `\${env:${name}}: only variables named RPA_… may be referred to` });
          return '';
        }
        const found = env[name];
        if (found === undefined) {
          problems.push({ path, message: `\${env:${name}}: the variable is not set` });
          return '';
        }
        if (found !== '') masked.add(found);
        return found;
      });
    }
    if (Array.isArray(value)) return value.map((v, i) => walk(v, `${path}[${i}]`));
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, walk(v, path ? `${path}.${k}` : k)]),
      );
    return value;
  };
  const value = walk(doc, '');
  return { value, masked: [...masked], problems };
}

/** `text` with every value in `masked` replaced by `***`, longest first (one may contain another). */
export function maskValues(text: string, masked: readonly string[]): string {
  let out = text;
  for (const value of [...masked].sort((a, b) => b.length - a.length)) out = out.replaceAll(value, '***');
  return out;
}
