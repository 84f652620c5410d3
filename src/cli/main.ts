import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.js';
import { AppError } from '../errors.js';
import { VERSION } from '../version.js';
import { CliError } from './cli-error.js';
import { registerAppsCommands } from './commands/apps-commands.js';
import { registerAuditCommand } from './commands/audit-command.js';
import { registerClientsCommands } from './commands/clients-commands.js';
import { registerDemoCommand } from './commands/demo-command.js';
import { registerOpenApiCommand } from './commands/openapi-command.js';
import { registerPasskeysCommands } from './commands/passkeys-commands.js';
import { registerPrivacyCommands } from './commands/privacy-commands.js';
import { registerReviewsCommands } from './commands/reviews-commands.js';
import { registerServeCommands } from './commands/serve-command.js';
import { registerTokensCommands } from './commands/tokens-commands.js';
import { registerWebhooksCommands } from './commands/webhooks-commands.js';
import { registerWorkerCommand } from './commands/worker-command.js';

export function buildProgram(): Command {
  const program = new Command()
    .name('rpa')
    .description('reviews-partner-api: serve the API and administer tenants')
    .version(VERSION, '-V, --version', 'print the version and exit')
    .helpOption('-h, --help', 'show help for a command')
    .helpCommand('help [command]', 'show help for a command')
    .showHelpAfterError(false)
    .exitOverride()
    // Set before subcommands are added: commander copies these settings when a command is created.
    .configureOutput({
      writeErr: (s) => process.stderr.write(withoutSecrets(s.startsWith('error:') ? `rpa: ${s}` : s)),
    });
  registerServeCommands(program);
  registerClientsCommands(program);
  registerAppsCommands(program);
  registerPasskeysCommands(program);
  registerTokensCommands(program);
  registerReviewsCommands(program);
  registerDemoCommand(program);
  registerWorkerCommand(program);
  registerPrivacyCommands(program);
  registerOpenApiCommand(program);
  registerAuditCommand(program);
  registerWebhooksCommands(program);
  return program;
}

/** Runs the CLI; every failure is one line on stderr and a non-zero exit code. */
export async function main(argv: readonly string[]): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync([...argv]);
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version exit 0; usage errors were already printed by commander.
      process.exitCode = err.exitCode === 0 ? 0 : 2;
      return;
    }
    const message =
      err instanceof AppError || err instanceof ConfigError || err instanceof CliError
        ? err.message
        : err instanceof Error
          ? (err.message.split('\n')[0] ?? '')
          : String(err);
    process.stderr.write(`rpa: ${withoutSecrets(message)}\n`);
    process.exitCode = 1;
  }
}

/**
 * The last guard before a message reaches a terminal, a CI log or a support ticket: a secret an
 * operator pasted into the wrong argument is cut to its prefix wherever a message repeats it.
 */
function withoutSecrets(message: string): string {
  return message
    .replace(/\b(rpa_(?:cs|at|pk)_)[A-Za-z0-9_.~-]+/gi, '$1…')
    .replace(/\b(whsec_)[A-Za-z0-9+/=]+/gi, '$1…');
}

const invokedDirectly = (() => {
  try {
    return realpathSync(process.argv[1] ?? '') === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
})();
if (invokedDirectly) await main(process.argv);
