import { type EnvReference, MASKED_VALUE } from './env-references.js';
import type { FieldChange, PlanItem } from './plan-items.js';
import { type FileProblem, normalizedUrl, passkeyKey, type TenancyFile, webhookKey } from './tenancy-file.js';
import type { TenancyPlan } from './tenancy-plan.js';

// A value a file took from the environment is shown as `***` in every output of `rpa config`
// (docs/configuration-as-code.md). It is masked where it stands, field by field, not by searching
// the output for it: on its way out a value changes (a URL is normalised, JSON escapes a quote),
// and a short one ('1') would mask every digit alike.

interface Masked {
  /** How outputs show it: as the file wrote it, each reference `***`. */
  readonly shown: string;
  /** Its value in the file read (a number, if its field wants one). */
  readonly value: unknown;
  /** How free text about it (a problem, a refusal) may quote it, longest first. */
  readonly texts: readonly string[];
}

/** The file's values from the environment, by path (`applications[0].webhooks[1].url`). */
export interface EnvMask {
  readonly at: ReadonlyMap<string, Masked>;
}

/** The mask of `file` (as read: references replaced, types converted) given where it referred. */
export function envMask(file: unknown, references: ReadonlyMap<string, EnvReference>): EnvMask {
  const at = new Map<string, Masked>();
  for (const [path, ref] of references) {
    const value = valueAt(file, path);
    at.set(path, {
      shown: ref.shown,
      value,
      texts: typeof value === 'string' ? textsOf(path, value, ref) : [],
    });
  }
  return { at };
}

/** A number or a boolean is only masked where it stands: as text, '1' would be found everywhere. */
function textsOf(path: string, value: string, ref: EnvReference): string[] {
  const texts = new Set([value, ...ref.values]);
  if (path.endsWith('.url')) {
    texts.add(normalizedUrl(value));
    // The host came from the environment: a refusal names it (`10.0.0.1 is a private address`).
    if (/^[^:/]*:\/\/[^/?#]*\*\*\*/.test(ref.shown)) {
      try {
        const url = new URL(value);
        texts.add(url.host);
        texts.add(url.hostname);
      } catch {
        // Not a URL: its schema says so, and the value itself is masked.
      }
    }
  }
  texts.delete('');
  return [...texts].sort((a, b) => b.length - a.length);
}

function valueAt(doc: unknown, path: string): unknown {
  let here = doc;
  for (const part of path.match(/[^.[\]]+/g) ?? []) {
    if (here === null || typeof here !== 'object') return undefined;
    here = (here as Record<string, unknown>)[part];
  }
  return here;
}

/** Whether `path` is `outer` or inside it (`applications[1]` holds `applications[1].name`, not `applications[10]`). */
const within = (path: string, outer: string) =>
  path === outer || path.startsWith(`${outer}.`) || path.startsWith(`${outer}[`);
const related = (a: string, b: string) => within(a, b) || within(b, a);

const replaceEach = (text: string, pairs: readonly (readonly [string, string])[]) =>
  pairs.reduce((out, [from, to]) => out.replaceAll(from, to), text);

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `text` with each of `texts` masked where it stands as a word of its own: quoted, a value is set
 * off by a space, a quote or a URL's punctuation, while a short one ('a') inside a word is not it.
 */
function maskWords(text: string, texts: readonly string[]): string {
  const word = (t: string) => new RegExp(`(?<![\\p{L}\\p{N}])${escaped(t)}(?![\\p{L}\\p{N}])`, 'gu');
  return [...texts]
    .sort((a, b) => b.length - a.length)
    .reduce((out, t) => out.replace(word(t), MASKED_VALUE), text);
}

/** Free text (an error of the server) with every value from the environment masked. */
export function maskText(text: string, mask: EnvMask): string {
  return maskWords(
    text,
    [...mask.at.values()].flatMap((m) => m.texts),
  );
}

/** A problem with the values from the environment at or under its path masked. */
export function maskProblem(problem: FileProblem, mask: EnvMask): FileProblem {
  const texts = [...mask.at].filter(([path]) => related(path, problem.path)).flatMap(([, m]) => m.texts);
  return { ...problem, message: maskWords(problem.message, texts) };
}

interface Place {
  /** Where the object is in the file: `applications[0].passkeys[1]`. */
  readonly path: string;
  readonly key: string;
  /** Its key as shown. */
  readonly shown: string;
}

/** Each object of the file by `<kind> <key>`, as a plan names it, with its key as outputs show it. */
function placesOf(file: TenancyFile, mask: EnvMask): Map<string, Place> {
  const places = new Map<string, Place>();
  const shown = (path: string, raw: string) => mask.at.get(path)?.shown ?? raw;
  const add = (kind: PlanItem['kind'], key: string, path: string, as: string) =>
    places.set(`${kind} ${key}`, { path, key, shown: as });
  (file.clients ?? []).forEach((c, i) => {
    add('client', c.name, `clients[${i}]`, shown(`clients[${i}].name`, c.name));
  });
  (file.applications ?? []).forEach((a, i) => {
    const at = `applications[${i}]`;
    const name = shown(`${at}.name`, a.name);
    add('application', a.name, at, name);
    (a.passkeys ?? []).forEach((p, j) => {
      const path = `${at}.passkeys[${j}]`;
      add('passkey', passkeyKey(a.name, p.name), path, passkeyKey(name, shown(`${path}.name`, p.name)));
    });
    (a.webhooks ?? []).forEach((w, j) => {
      const path = `${at}.webhooks[${j}]`;
      const url = normalizedUrl(w.url);
      add('webhook', webhookKey(a.name, url), path, webhookKey(name, shown(`${path}.url`, url)));
    });
  });
  return places;
}

function maskFields(
  fields: Readonly<Record<string, FieldChange>>,
  path: string,
  mask: EnvMask,
): Record<string, FieldChange> {
  const out: Record<string, FieldChange> = {};
  for (const [name, change] of Object.entries(fields)) {
    const at = `${path}.${name}`;
    if (mask.at.has(at)) {
      out[name] = { from: change.from, to: MASKED_VALUE };
      continue;
    }
    // A list (clientNames, events) is planned sorted: its items from the environment, by value.
    const listed = new Set([...mask.at].filter(([p]) => p.startsWith(`${at}[`)).map(([, m]) => m.value));
    const list = (v: unknown) =>
      Array.isArray(v) && listed.size > 0 ? v.map((x) => (listed.has(x) ? MASKED_VALUE : x)) : v;
    out[name] = { from: list(change.from), to: list(change.to) };
  }
  return out;
}

/** The plan as outputs may show it: keys, fields and problems with no value from the environment. */
export function maskPlan(plan: TenancyPlan, file: TenancyFile, mask: EnvMask): TenancyPlan {
  if (mask.at.size === 0) return plan;
  const places = placesOf(file, mask);
  const item = (i: PlanItem): PlanItem => {
    const place = places.get(`${i.kind} ${i.key}`);
    if (!place) return i;
    return {
      ...i,
      key: place.shown,
      ...(i.fields ? { fields: maskFields(i.fields, place.path, mask) } : {}),
    };
  };
  const renamed = [...places.values()]
    .filter((p) => p.shown !== p.key)
    .sort((a, b) => b.key.length - a.key.length);
  const problem = (p: FileProblem): FileProblem => {
    const keys = renamed.filter((r) => related(r.path, p.path)).map((r) => [r.key, r.shown] as const);
    return maskProblem({ ...p, message: replaceEach(p.message, keys) }, mask);
  };
  return {
    ...plan,
    creations: plan.creations.map(item),
    changes: plan.changes.map(item),
    adoptions: plan.adoptions.map(item),
    revocations: plan.revocations.map(item),
    problems: plan.problems.map(problem),
  };
}
