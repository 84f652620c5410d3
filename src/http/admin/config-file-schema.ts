import { type Static, Type } from 'typebox';
import { Value } from 'typebox/value';
import type { FileProblem, TenancyFile } from '../../domain/tenancy-file.js';
import { WEBHOOK_EVENT_TYPES } from '../../domain/webhook-event.js';
import { Environment } from './admin-schemas.js';
import { Api, PasskeyName, Quota, RateLimit } from './passkey-admin-schemas.js';
import { NewApplication, NewClient } from './tenancy-admin-schemas.js';
import { NewWebhookEndpoint } from './webhook-admin-schemas.js';

// The configuration file's schema (`rpa config schema`), built from the fields of the admin API's
// own request schemas, so a file and an API call accept the same values. Every object refuses
// fields it does not know: a misspelt `rateLimit` must not silently mean "the default".
const closed = { additionalProperties: false } as const;

const Label = Type.String({
  minLength: 1,
  maxLength: 100,
  description:
    'A label of the current secret: a different one rotates it (the old one keeps working for a while)',
});

const PasskeyEntry = Type.Object(
  {
    name: PasskeyName,
    api: Api,
    rateLimitPerMinute: Type.Optional(RateLimit),
    quotaPerDay: Type.Optional(Quota),
    expiresAt: Type.Optional(Type.String({ format: 'date-time', description: 'Default: never' })),
  },
  closed,
);

const WebhookEntry = Type.Object(
  {
    url: NewWebhookEndpoint.properties.url,
    events: Type.Optional(
      Type.Array(Type.Enum([...WEBHOOK_EVENT_TYPES]), {
        maxItems: 20,
        description: 'Default: every event type',
      }),
    ),
    rotate: Type.Optional(Label),
  },
  closed,
);

const ApplicationEntry = Type.Object(
  {
    name: NewApplication.properties.name,
    clientNames: Type.Optional(NewApplication.properties.clientNames),
    rotate: Type.Optional(Label),
    passkeys: Type.Optional(Type.Array(PasskeyEntry, { maxItems: 100 })),
    webhooks: Type.Optional(Type.Array(WebhookEntry, { maxItems: 10 })),
  },
  closed,
);

export const ConfigFile = Type.Object(
  {
    apiVersion: Type.Literal('rpa/v1'),
    environment: Environment,
    stack: Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$',
      description: 'Who manages these objects: a prune revokes only what this stack created or adopted',
    }),
    clients: Type.Optional(
      Type.Array(Type.Object({ name: NewClient.properties.name }, closed), { maxItems: 100_000 }),
    ),
    applications: Type.Optional(Type.Array(ApplicationEntry, { maxItems: 100_000 })),
  },
  { ...closed, $id: 'ConfigFile', title: 'reviews-partner-api tenancy configuration (rpa/v1)' },
);

// The schema and the domain's type describe one file: a change to either fails the build here.
const _sameShape: TenancyFile = {} as Static<typeof ConfigFile>;

/** `applications[0].passkeys[1]` for the JSON pointer `/applications/0/passkeys/1`. */
function pathOf(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

/**
 * The file with text read as a number or a boolean where its schema wants one, at the paths whose
 * whole value was one `${env:…}`: a value from the environment is text
 * (docs/configuration-as-code.md), and `quotaPerDay: ${env:RPA_QUOTA}` means the number. Text the
 * file itself wrote stays text, as the printed schema says; what cannot be read is left for
 * configFileProblems.
 */
export function convertConfigFile(doc: unknown, fromEnvironment: ReadonlySet<string>): unknown {
  const converted = Value.Convert(ConfigFile, structuredClone(doc));
  const keep = (was: unknown, now: unknown, path: string): unknown => {
    if (Array.isArray(was) && Array.isArray(now)) return now.map((v, i) => keep(was[i], v, `${path}[${i}]`));
    if (isRecord(was) && isRecord(now))
      return Object.fromEntries(
        Object.entries(now).map(([k, v]) => [k, keep(was[k], v, path ? `${path}.${k}` : k)]),
      );
    return was === now || fromEnvironment.has(path) ? now : was;
  };
  return keep(doc, converted, '');
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** What is wrong with `doc` against the file's schema, each at its path; none when it is a file. */
export function configFileProblems(doc: unknown): FileProblem[] {
  const problems: FileProblem[] = [];
  const seen = new Set<string>();
  const errors = Value.Errors(ConfigFile, doc);
  // A value none of a union's choices accepts (an environment, an API) is one problem, not one per choice.
  const unions = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  for (const e of errors) {
    const at = pathOf(e.instancePath);
    // A field no schema names is reported once, as unknown, rather than as a false schema too.
    if (e.keyword === 'boolean') continue;
    if (e.keyword !== 'anyOf' && unions.has(e.instancePath)) continue;
    const found =
      e.keyword === 'additionalProperties'
        ? ((e.params as { additionalProperties?: string[] }).additionalProperties ?? []).map((name) => ({
            path: at ? `${at}.${name}` : name,
            message: 'unknown field',
          }))
        : e.keyword === 'required'
          ? ((e.params as { requiredProperties?: string[] }).requiredProperties ?? []).map((name) => ({
              path: at ? `${at}.${name}` : name,
              message: 'missing',
            }))
          : [{ path: at, message: messageOf(e) }];
    for (const p of found) {
      const key = `${p.path}: ${p.message}`;
      if (!seen.has(key)) problems.push(p);
      seen.add(key);
    }
  }
  return problems;
}

function messageOf(e: { keyword: string; message: string; params: unknown }): string {
  if (e.keyword === 'anyOf') return 'must be one of the allowed values';
  const allowed = (e.params as { allowedValues?: unknown[] }).allowedValues;
  return e.keyword === 'enum' && allowed ? `must be one of ${allowed.join(', ')}` : e.message;
}

/** The file's JSON Schema, as `rpa config schema` prints it. */
export function configFileJsonSchema(): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    ...JSON.parse(JSON.stringify(ConfigFile)),
  };
}
