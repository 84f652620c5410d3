import type { Environment, PasskeyApi } from '../store/schema.js';

/** Client instance names look like `Acme-EN_GB`: letters, digits and `-_.`, at most 100 characters. */
export const CLIENT_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

export const ENVIRONMENTS: readonly Environment[] = ['production', 'staging'];
export const PASSKEY_APIS: readonly PasskeyApi[] = ['response', 'privacy'];

export function isEnvironment(v: string): v is Environment {
  return (ENVIRONMENTS as readonly string[]).includes(v);
}

export function isPasskeyApi(v: string): v is PasskeyApi {
  return (PASSKEY_APIS as readonly string[]).includes(v);
}
