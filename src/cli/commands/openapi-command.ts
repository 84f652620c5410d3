import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { buildAdminServer } from '../../http/admin/build-admin-server.js';
import { buildServer } from '../../http/build-server.js';
import { createLogger } from '../../logger.js';
import { createRuntime } from '../../runtime.js';
import type { CliIo } from '../cli-io.js';

/**
 * The OpenAPI document as this configuration serves it at /openapi.json (its servers follow
 * PUBLIC_SCHEME, ALLOWED_HOSTS and PORT), built without listening and without the configured
 * database or Redis: the document depends on neither, so it can be written on a build machine.
 */
async function openApiDocument(io: CliIo, which: 'public' | 'admin'): Promise<unknown> {
  const config = loadConfig({
    ...io.env,
    DATABASE_URL: 'sqlite::memory:',
    REDIS_URL: '',
    WORKER_ENABLED: 'false',
  });
  const runtime = await createRuntime(config, { logger: createLogger('warn', io.stderr) });
  try {
    const app =
      which === 'admin'
        ? await buildAdminServer(runtime.deps, { throttle: runtime.http.authThrottle })
        : await buildServer(runtime.http);
    await app.ready();
    return app.swagger();
  } finally {
    await runtime.close();
  }
}

export function registerOpenApiCommand(program: Command, io: CliIo): void {
  program
    .command('openapi')
    .description('print the OpenAPI 3.1 document this configuration serves at /openapi.json')
    .option('--admin', "the admin listener's document instead (/admin/v1/openapi.json)")
    .option('--out <file>', 'write it to a file instead of stdout')
    .action(async (opts: { out?: string; admin?: boolean }) => {
      const document = await openApiDocument(io, opts.admin ? 'admin' : 'public');
      const text = `${JSON.stringify(document, null, 2)}\n`;
      if (opts.out) await writeFile(opts.out, text);
      else io.stdout.write(text);
    });
}
