import { generateCredential, hashCredential } from '../../src/domain/credentials.js';
import type { Environment } from '../../src/domain/environment.js';
import type { Runtime } from '../../src/runtime.js';
import { type DemoCredentials, seedDemo } from '../../src/services/tenancy/seed-demo.js';
import { insertAccessToken } from '../../src/store/repositories/access-tokens.js';

/**
 * Issues a bearer token straight into the store, as the token endpoint would, so resource tests do
 * not depend on the token service. Expires an hour after the runtime's clock unless told otherwise.
 */
export async function issueTestToken(
  runtime: Pick<Runtime, 'deps'>,
  applicationId: string,
  environment: Environment,
  options: { expiresAt?: number; revokedAt?: number } = {},
): Promise<string> {
  const token = generateCredential('accessToken');
  const now = runtime.deps.clock();
  await insertAccessToken(runtime.deps.store.db, {
    token_hash: hashCredential(token),
    application_id: applicationId,
    environment,
    secret_id: null,
    created_at: now,
    expires_at: options.expiresAt ?? now + 3_600_000,
    revoked_at: options.revokedAt ?? null,
  });
  return token;
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
