import type { Environment } from '../../domain/environment.js';
import { AppError } from '../../errors.js';
import { findClientByName } from '../../store/repositories/clients.js';
import type { ServiceDeps } from '../deps.js';
import { importReviews } from '../reviews/import-reviews.js';
import { createApplication } from './create-application.js';
import { createClient } from './create-client.js';
import { createPasskey } from './create-passkey.js';

const DEMO_CLIENTS = ['Acme-EN_GB', 'Acme-DE_DE'] as const;

export interface DemoCredentials {
  readonly environment: Environment;
  readonly applicationId: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly responsePasskey: string;
  /** What `rpa passkeys update` takes: the passkey's id, not its value. */
  readonly responsePasskeyId: string;
  readonly privacyPasskey: string;
  readonly privacyPasskeyId: string;
  readonly clientNames: readonly string[];
  /** The demo reviews present: those of a person forgotten in a client are not brought back. */
  readonly reviewIds: readonly string[];
  /** Demo reviews not imported because their author was forgotten (docs/design.md, Suppression). */
  readonly skippedForgotten: number;
}

const PEOPLE = [
  {
    name: 'Alice Example',
    authorId: 'alice-1',
    emailAddress: 'alice@example.com',
    phoneNumber: '+44 20 7946 0001',
  },
  {
    name: 'Bob Example',
    authorId: 'bob-2',
    emailAddress: 'bob@example.com',
    instagramUsername: 'bob.example',
  },
  {
    name: 'Chloé Exemple',
    authorId: 'chloe-3',
    emailAddress: 'chloe@example.org',
    twitterUsername: 'chloe_x',
  },
];

function demoReviews(environment: Environment): string[] {
  return DEMO_CLIENTS.flatMap((clientName) =>
    PEOPLE.map((author, i) =>
      JSON.stringify({
        id: `demo-${environment === 'staging' ? 'stg-' : ''}${clientName.toLowerCase()}-${i + 1}`,
        clientName,
        rating: 5 - i,
        title: `Review ${i + 1} for ${clientName}`,
        text: 'Quick delivery and friendly support.',
        submittedAt: new Date(Date.UTC(2026, 0, 10 + i)).toISOString(),
        author,
      }),
    ),
  );
}

/**
 * Seeds a demo tenant in one environment: two client instances with reviews from three people,
 * an application granted both, and one passkey per API. Clients and reviews are reused when they
 * exist; the application is new each time because its secret is shown only once. A demo person
 * who was forgotten stays forgotten: the import skips their reviews.
 */
export async function seedDemo(
  deps: ServiceDeps,
  input: { environment: Environment },
): Promise<DemoCredentials> {
  const { environment } = input;
  for (const name of DEMO_CLIENTS) {
    if (!(await findClientByName(deps.store.db, environment, name))) {
      try {
        await createClient(deps, { environment, name });
      } catch (err) {
        // Another process may have seeded the same client in between.
        if (!(err instanceof AppError && err.code === 'CONFLICT')) throw err;
      }
    }
  }
  const lines = demoReviews(environment);
  const imported = await importReviews(deps, { lines, environment });
  const skippedLines = new Set(imported.skipped.map((s) => s.line));
  const created = await createApplication(deps, {
    environment,
    name: `Demo application (${environment})`,
    clientNames: [...DEMO_CLIENTS],
  });
  const response = await createPasskey(deps, { applicationId: created.application.id, api: 'response' });
  const privacy = await createPasskey(deps, { applicationId: created.application.id, api: 'privacy' });
  return {
    environment,
    applicationId: created.application.id,
    clientId: created.application.clientId,
    clientSecret: created.clientSecret,
    responsePasskey: response.value,
    responsePasskeyId: response.passkey.id,
    privacyPasskey: privacy.value,
    privacyPasskeyId: privacy.passkey.id,
    clientNames: created.clientNames,
    reviewIds: lines
      .filter((_, i) => !skippedLines.has(i + 1))
      .map((l) => (JSON.parse(l) as { id: string }).id),
    skippedForgotten: imported.skippedForgotten,
  };
}
