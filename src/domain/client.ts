import type { Environment } from './environment.js';

/** Client instance names look like `Acme-EN_GB`: letters, digits and `-_.`, at most 100 characters. */
export const CLIENT_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

/** A client instance (a brand's site), unique by name within its environment. */
export interface Client {
  readonly id: string;
  readonly environment: Environment;
  readonly name: string;
  readonly createdAt: number;
}
