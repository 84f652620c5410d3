import type { Environment } from '../../src/domain/environment.js';
import type { Runtime } from '../../src/runtime.js';
import type { AuthenticatedClient } from '../../src/services/auth/authenticate-client.js';
import { issueAccessToken } from '../../src/services/auth/issue-access-token.js';
import { revokeAccessToken } from '../../src/services/auth/revoke-access-token.js';
import { type DemoCredentials, seedDemo } from '../../src/services/tenancy/seed-demo.js';
import { findApplicationById, listActiveSecrets } from '../../src/store/repositories/applications.js';

/** The application as the token endpoint would have authenticated it, with its newest secret. */
export async function authenticatedClientOf(
  runtime: Pick<Runtime, 'deps'>,
  applicationId: string,
): Promise<AuthenticatedClient> {
  const application = await findApplicationById(runtime.deps.store.db, applicationId);
  const secrets = await listActiveSecrets(runtime.deps.store.db, applicationId);
  const secret = secrets[secrets.length - 1];
  if (!application || !secret) throw new Error(`no active application ${applicationId}`);
  return { application, secretId: secret.id };
}

/**
 * Issues a signed bearer token through the token service without the token endpoint, so resource
 * tests do not depend on it. Expires an hour after the runtime's clock unless told otherwise; a
 * `revokedAt` revokes it as RFC 7009 would.
 */
export async function issueTestToken(
  runtime: Pick<Runtime, 'deps'>,
  applicationId: string,
  environment: Environment,
  options: { expiresAt?: number; revokedAt?: number } = {},
): Promise<string> {
  const client = await authenticatedClientOf(runtime, applicationId);
  if (client.application.environment !== environment) throw new Error('application of another environment');
  const now = runtime.deps.clock();
  const expiresIn = Math.round(((options.expiresAt ?? now + 3_600_000) - now) / 1000);
  const { accessToken } = await issueAccessToken(runtime.deps, {
    client,
    scope: 'offline_access',
    expiresIn,
  });
  if (options.revokedAt !== undefined) await revokeAccessToken(runtime.deps, { client, token: accessToken });
  return accessToken;
}

export interface TestTenant extends DemoCredentials {
  /** A valid bearer token of the demo application. */
  readonly token: string;
}

/**
 * Seeds the demo tenant of one environment (two clients, six reviews, an application with one
 * passkey per API) and issues it a token. Each call creates a new application.
 */
export async function seedTestTenant(
  runtime: Pick<Runtime, 'deps'>,
  environment: Environment = 'production',
): Promise<TestTenant> {
  const demo = await seedDemo(runtime.deps, { environment: environment });
  return { ...demo, token: await issueTestToken(runtime, demo.applicationId, environment) };
}
