import type { Environment } from './environment.js';
import type { PasskeyApi } from './passkey.js';

/**
 * The tenancy of one environment as a file an operator keeps in git (`rpa config`): what a stack
 * wants to exist. Field names are the admin API's. The shape is checked by its schema first
 * (http/admin/config-file-schema.ts); the rules no schema states are checked here.
 */
export interface TenancyFile {
  readonly apiVersion: 'rpa/v1';
  readonly environment: Environment;
  /** Who manages these objects: a prune revokes only what this stack created or adopted. */
  readonly stack: string;
  readonly clients?: readonly { readonly name: string }[] | undefined;
  readonly applications?: readonly ApplicationSpec[] | undefined;
}

export interface ApplicationSpec {
  readonly name: string;
  readonly clientNames?: readonly string[] | undefined;
  /** A label for the current client secret: a different one rotates it. */
  readonly rotate?: string | undefined;
  readonly passkeys?: readonly PasskeySpec[] | undefined;
  readonly webhooks?: readonly WebhookSpec[] | undefined;
}

export interface PasskeySpec {
  readonly name: string;
  readonly api: PasskeyApi;
  /** Absent: the configured default. */
  readonly rateLimitPerMinute?: number | undefined;
  readonly quotaPerDay?: number | undefined;
  /** ISO 8601; absent: never. */
  readonly expiresAt?: string | undefined;
}

export interface WebhookSpec {
  readonly url: string;
  /** Absent: every event type. */
  readonly events?: readonly string[] | undefined;
  /** A label for the current signing secret: a different one rotates it. */
  readonly rotate?: string | undefined;
}

/** One thing wrong with a file, at its path (`applications[0].passkeys[1].name`). */
export interface FileProblem {
  readonly path: string;
  readonly message: string;
}

/** `path: message`, as every output of `rpa config` shows a problem. */
export const describeProblem = (p: FileProblem): string => (p.path ? `${p.path}: ${p.message}` : p.message);

/** The key of a passkey in plans and in the secrets of an apply: `<application>/<passkey>`. */
export const passkeyKey = (application: string, passkey: string): string => `${application}/${passkey}`;
/** The key of a webhook endpoint: `<application> <url>`. */
export const webhookKey = (application: string, url: string): string => `${application} ${url}`;

/** A URL as it is stored (URL's serialization), so a file and the database compare equal. */
export function normalizedUrl(raw: string): string {
  try {
    return new URL(raw).href;
  } catch {
    return raw;
  }
}

/**
 * What the file's schema cannot say: names unique where the file names objects by them
 * (applications, clients, passkeys and webhook URLs within an application), and expiries a time
 * can be read from. A client name no client of the file has may name one the environment holds
 * already (another stack's, or one made by hand): the plan checks it.
 */
export function checkTenancyFile(file: TenancyFile): FileProblem[] {
  const problems: FileProblem[] = [];
  const clients = new Set<string>();
  (file.clients ?? []).forEach((c, i) => {
    if (clients.has(c.name))
      problems.push({ path: `clients[${i}].name`, message: `duplicate client ${c.name}` });
    clients.add(c.name);
  });
  const apps = new Set<string>();
  (file.applications ?? []).forEach((app, i) => {
    const at = `applications[${i}]`;
    if (apps.has(app.name))
      problems.push({ path: `${at}.name`, message: `duplicate application ${app.name}` });
    apps.add(app.name);
    problems.push(...duplicates(app.passkeys ?? [], (p) => p.name, `${at}.passkeys`, 'name', 'passkey'));
    (app.passkeys ?? []).forEach((p, j) => {
      // RFC 3339 allows a leap second (:60) that Date cannot read: it would silently mean "never".
      if (p.expiresAt !== undefined && Number.isNaN(Date.parse(p.expiresAt)))
        problems.push({
          path: `${at}.passkeys[${j}].expiresAt`,
          message: `not a time that can be read: ${p.expiresAt}`,
        });
    });
    problems.push(
      ...duplicates(app.webhooks ?? [], (w) => normalizedUrl(w.url), `${at}.webhooks`, 'url', 'webhook url'),
    );
  });
  return problems;
}

function duplicates<T>(
  items: readonly T[],
  key: (item: T) => string,
  at: string,
  field: string,
  what: string,
): FileProblem[] {
  const seen = new Set<string>();
  const found: FileProblem[] = [];
  items.forEach((item, i) => {
    const k = key(item);
    if (seen.has(k)) found.push({ path: `${at}[${i}].${field}`, message: `duplicate ${what} ${k}` });
    seen.add(k);
  });
  return found;
}
