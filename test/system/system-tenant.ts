import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { rpaProcessAgainst } from '../helpers/rpa-cli.js';

export interface SystemTenant {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly responsePasskey: string;
  readonly privacyPasskey: string;
  /** A response passkey with a small policy, for the admission checks. */
  readonly limited: { readonly passkey: string; readonly perMinute: number; readonly perDay: number };
  /** People with many reviews each, to be forgotten while faults hit. */
  readonly heavyPeople: readonly string[];
  readonly reviewsPerHeavyPerson: number;
}

/**
 * Seeds the suite's own database as an operator would, with `rpa`: the demo tenant (its passkeys
 * raised out of the load's way), a passkey with a small policy, and people with thousands of
 * reviews each, so an erasure takes long enough to be under way when a fault hits.
 */
export function seedSystemTenant(options: {
  env: Record<string, string>;
  dir: string;
  heavyPeople: number;
  reviewsPerPerson: number;
  limited: { perMinute: number; perDay: number };
}): SystemTenant {
  const rpa = rpaProcessAgainst(
    { databaseUrl: options.env.DATABASE_URL ?? '', schema: undefined },
    options.env,
  );
  const json = (...args: string[]) => {
    const r = rpa(...args, '--json');
    assert.equal(r.code, 0, `rpa ${args.join(' ')}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  };
  const demo = json('demo').production;
  for (const id of [demo.responsePasskeyId, demo.privacyPasskeyId])
    json('passkeys', 'update', id, '--rate-limit', '1000000', '--quota', '100000000');
  const limited = json(
    'passkeys',
    'create',
    '--app',
    demo.applicationId,
    '--api',
    'response',
    '--rate-limit',
    String(options.limited.perMinute),
    '--quota',
    String(options.limited.perDay),
  );

  const heavyPeople = Array.from({ length: options.heavyPeople }, (_, i) => `heavy-${i}@example.com`);
  const lines = heavyPeople.flatMap((email, i) =>
    Array.from({ length: options.reviewsPerPerson }, (_, j) =>
      JSON.stringify({
        id: `heavy-${i}-${j}`,
        clientName: j % 2 === 0 ? 'Acme-EN_GB' : 'Acme-DE_DE',
        rating: 1 + (j % 5),
        text: 'Arrived late, but support sorted it out.',
        author: { name: `Heavy Reviewer ${i}`, emailAddress: email },
      }),
    ),
  );
  const file = join(options.dir, 'heavy-reviews.ndjson');
  writeFileSync(file, lines.join('\n'));
  const imported = json('reviews', 'import', file);
  assert.equal(imported.imported, lines.length, JSON.stringify(imported));

  return {
    clientId: demo.clientId,
    clientSecret: demo.clientSecret,
    responsePasskey: demo.responsePasskey,
    privacyPasskey: demo.privacyPasskey,
    limited: { passkey: limited.passkey, ...options.limited },
    heavyPeople,
    reviewsPerHeavyPerson: options.reviewsPerPerson,
  };
}

/** How many reviews each person still has, read from the database itself; null if it cannot be read. */
export async function remainingReviews(
  url: string,
  emails: readonly string[],
): Promise<Map<string, number> | null> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ author_email: string; n: string }>(
      'select author_email, count(*) as n from reviews where author_email = any($1) group by author_email',
      [emails],
    );
    const counts = new Map(emails.map((e) => [e, 0]));
    for (const r of rows) counts.set(r.author_email, Number(r.n));
    return counts;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Opens connections until the server refuses one; they are held until `release`. */
export async function exhaustConnections(url: string, atMost: number) {
  const held: pg.Client[] = [];
  let refusal = '';
  for (let i = 0; i < atMost; i++) {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => {});
    try {
      await client.connect();
      held.push(client);
    } catch (err) {
      refusal = err instanceof Error ? err.message : String(err);
      break;
    }
  }
  return {
    held: held.length,
    refusal,
    release: () => Promise.all(held.map((c) => c.end().catch(() => {}))),
  };
}
