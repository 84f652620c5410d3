/**
 * A privacy worker in its own process for crash tests: the real worker, configured from the
 * environment like `rpa worker`, that reports each committed batch on stdout and, with
 * `--pause-after N`, stops making progress after N batches so the test can kill it there.
 */
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { createRuntime } from '../../src/runtime.js';
import { startPrivacyWorker } from '../../src/worker/privacy-worker.js';

const pauseIndex = process.argv.indexOf('--pause-after');
const pauseAfter = pauseIndex === -1 ? Number.POSITIVE_INFINITY : Number(process.argv[pauseIndex + 1]);

const config = loadConfig();
const runtime = await createRuntime(config, { logger: createLogger(config.logLevel, process.stderr) });
startPrivacyWorker(runtime.deps, {
  async afterBatch({ requestId, batches, receipt }) {
    process.stdout.write(`batch ${batches} of ${requestId}: ${JSON.stringify(receipt)}\n`);
    if (batches >= pauseAfter) {
      process.stdout.write('paused\n');
      await new Promise(() => {});
    }
  },
});
