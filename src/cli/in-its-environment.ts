import { ENVIRONMENTS, type Environment } from '../domain/environment.js';
import { CliError } from './cli-error.js';

/**
 * What a command names that lives in one environment (an application, a passkey, an endpoint):
 * how the admin API's 404 about it begins, and the command's own failure when neither
 * environment has it.
 */
export interface Named {
  readonly missingPrefix: string;
  readonly failure: string;
}

const quoted = (v: string) => JSON.stringify(v.slice(0, 100));

export const namedApplication = (app: string): Named => ({
  missingPrefix: 'no application',
  failure: `no application with the id or client id ${quoted(app)}`,
});
export const namedPasskey = (id: string): Named => ({
  missingPrefix: 'no passkey',
  failure: `no passkey ${quoted(id)}`,
});
export const namedEndpoint = (id: string): Named => ({
  missingPrefix: 'no webhook endpoint',
  failure: `no webhook endpoint with the id ${quoted(id)}; \`rpa webhooks list\` shows them`,
});

/** The command's failure when `err` says one of `named` is not in that environment; else null. */
function notThere(err: unknown, named: readonly Named[]): CliError | null {
  if (!(err instanceof CliError)) return null;
  const found = named.find((n) => err.message.startsWith(n.missingPrefix));
  return found ? new CliError(found.failure) : null;
}

/**
 * Does `work` in the environment of what the command names, production first: commands take
 * applications, passkeys and endpoints without `--env`, while the admin API names the environment
 * in every call and answers 404, having done nothing, for the other's. The change is tried
 * directly (no lookup first), so a token needs only the scope of the change.
 */
export async function inItsEnvironment<T>(
  named: readonly Named[],
  work: (env: Environment) => Promise<T>,
): Promise<T> {
  let missing: CliError | undefined;
  for (const env of ENVIRONMENTS) {
    try {
      return await work(env);
    } catch (err) {
      missing = notThere(err, named) ?? undefined;
      if (!missing) throw err;
    }
  }
  throw missing;
}

/** What `work` lists in each of `envs`; one without what the command names adds nothing. */
export async function fromEnvironments<T>(
  envs: readonly Environment[],
  named: readonly Named[],
  work: (env: Environment) => Promise<T[]>,
): Promise<T[]> {
  const found: T[] = [];
  let missing: CliError | undefined;
  let answered = false;
  for (const env of envs) {
    try {
      found.push(...(await work(env)));
      answered = true;
    } catch (err) {
      missing = notThere(err, named) ?? undefined;
      if (!missing) throw err;
    }
  }
  if (!answered && missing) throw missing;
  return found;
}
