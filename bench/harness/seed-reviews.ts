/**
 * Seeds reviews for the privacy and sustained scenarios in-process, through the project's import
 * service. The only place the benchmark imports from src/: when a service moves, update the
 * imports here.
 */
import { log } from './log.js';
import type { Target } from './targets.js';

/** Review `i` of a seeding of `people` people: its id, client, and the person who wrote it. */
export function seededReview(i: number, people: number, prefix = '') {
  const person = i % people;
  return {
    id: `bench-${prefix}${i}`,
    clientName: i % 2 === 0 ? 'Acme-EN_GB' : 'Acme-DE_DE',
    authorId: `${prefix}person-${person}`,
    person,
  };
}

/**
 * Seeds `count` reviews, five per person, by people `${prefix}person-0` … in-process, through the
 * import service; returns how many people wrote them. Review `i < people` is person `i`'s.
 */
export async function seedReviews(target: Target, count: number, prefix = ''): Promise<number> {
  const { loadConfig } = await import('../../src/config.js');
  const { createRuntime } = await import('../../src/runtime.js');
  const { importReviews } = await import('../../src/services/reviews/import-reviews.js');
  const { createLogger } = await import('../../src/logger.js');
  const config = loadConfig({ ...target.env, WORKER_ENABLED: 'false' });
  const runtime = await createRuntime(config, { logger: createLogger('warn', process.stderr) });
  const people = Math.max(1, Math.floor(count / 5));
  async function* lines() {
    for (let i = 0; i < count; i++) {
      const { id, clientName, authorId, person } = seededReview(i, people, prefix);
      yield JSON.stringify({
        id,
        clientName,
        rating: (i % 5) + 1,
        title: 'Benchmark review',
        text: 'A review written to give the privacy worker something to find among many.',
        author: { name: `Person ${person}`, authorId, emailAddress: `${authorId}@example.com` },
      });
    }
  }
  const started = Date.now();
  let lastLog = 0;
  const result = await importReviews(runtime.deps, {
    lines: lines(),
    environment: 'production',
    onProgress: (p) => {
      if (Date.now() - lastLog > 10_000) {
        lastLog = Date.now();
        log(`${target.name} seeding: ${p.imported.toLocaleString()} reviews`);
      }
    },
  });
  await runtime.close();
  log(
    `${target.name} seeded ${result.imported.toLocaleString()} reviews in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  return people;
}
