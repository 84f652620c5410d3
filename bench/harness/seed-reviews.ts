/**
 * Seeds reviews for the privacy scenario in-process, through the project's import service. The
 * only place the benchmark imports from src/: when a service moves, update the imports here.
 */
import { log } from './log.js';
import type { Target } from './targets.js';

/** Seeds `count` reviews by people person-0 … in-process, through the import service. */
export async function seedReviews(target: Target, count: number): Promise<number> {
  const { loadConfig } = await import('../../src/config.js');
  const { createRuntime } = await import('../../src/runtime.js');
  const { importReviews } = await import('../../src/services/reviews/import-reviews.js');
  const { createLogger } = await import('../../src/logger.js');
  const config = loadConfig({ ...target.env, WORKER_ENABLED: 'false' });
  const runtime = await createRuntime(config, { logger: createLogger('warn', process.stderr) });
  const people = Math.max(1, Math.floor(count / 5));
  async function* lines() {
    for (let i = 0; i < count; i++) {
      const person = i % people;
      yield JSON.stringify({
        id: `bench-${i}`,
        clientName: i % 2 === 0 ? 'Acme-EN_GB' : 'Acme-DE_DE',
        rating: (i % 5) + 1,
        title: 'Benchmark review',
        text: 'A review written to give the privacy worker something to find among many.',
        author: {
          name: `Person ${person}`,
          authorId: `person-${person}`,
          emailAddress: `person-${person}@example.com`,
        },
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
