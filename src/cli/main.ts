import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.js';
import { AppError } from '../errors.js';
import { VERSION } from '../version.js';
import { CliError } from './cli-error.js';
import { type CliIo, processIo } from './cli-io.js';
import { registerAdminTokensCommands } from './commands/admin-tokens-commands.js';
import { registerAppsCommands } from './commands/apps-commands.js';
import { registerAuditCommand } from './commands/audit-command.js';
import { registerClientsCommands } from './commands/clients-commands.js';
import { registerConfigCommands } from './commands/config-commands.js';
import { registerDemoCommand } from './commands/demo-command.js';
import { registerOpenApiCommand } from './commands/openapi-command.js';
import { registerPasskeysCommands } from './commands/passkeys-commands.js';
import { registerPrivacyCommands } from './commands/privacy-commands.js';
import { registerReviewsCommands } from './commands/reviews-commands.js';
import { registerServeCommands } from './commands/serve-command.js';
import { registerTokensCommands } from './commands/tokens-commands.js';
import { registerWebhooksCommands } from './commands/webhooks-commands.js';
import { registerWorkerCommand } from './commands/worker-command.js';

export function buildProgram(io: CliIo = processIo()): Command {
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
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(withoutSecrets(s.startsWith('error:') ? `rpa: ${s}` : s)),
    });
  registerServeCommands(program, io);
  registerClientsCommands(program, io);
  registerAppsCommands(program, io);
  registerPasskeysCommands(program, io);
  registerTokensCommands(program, io);
  registerReviewsCommands(program, io);
  registerDemoCommand(program, io);
  registerWorkerCommand(program, io);
  registerPrivacyCommands(program, io);
  registerOpenApiCommand(program, io);
  registerAuditCommand(program, io);
  registerWebhooksCommands(program, io);
  registerAdminTokensCommands(program, io);
  registerConfigCommands(program, io);
  return program;
}

/**
 * Runs the CLI with `argv` as node gives it (the first two are node and the script) and returns the
 * exit code; every failure is one line on stderr and a non-zero code.
 */
export async function run(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync([...argv]);
    return io.exitCode;
  } catch (err) {
    // Help and version exit 0; usage errors were already printed by commander, and exit 1 like
    // any failure: 2 is `rpa config diff`'s "something would change" (docs/configuration-as-code.md),
    // which a misspelt option must not pass for.
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 1;
    const message =
      err instanceof AppError || err instanceof ConfigError || err instanceof CliError
        ? err.message
        : err instanceof Error
          ? (err.message.split('\n')[0] ?? '')
          : String(err);
    io.stderr.write(`rpa: ${withoutSecrets(message)}\n`);
    return 1;
  }
}

/** `rpa` as a process: its arguments, environment and streams. */
export async function main(argv: readonly string[]): Promise<void> {
  endQuietlyWhenOutputCloses();
  process.exitCode = await run(argv);
}

/**
 * `rpa openapi | head -1`: a reader that stops reading is not a failure. A command-line tool dies
 * of SIGPIPE then; Node ignores that signal and reports EPIPE on the stream instead, which unheard
 * would end the process with a stack trace. Nothing more can be written, so the command ends here.
 */
function endQuietlyWhenOutputCloses(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
      process.exit(process.exitCode ?? 0);
    });
  }
}

/**
 * The last guard before a message reaches a terminal, a CI log or a support ticket: a secret an
 * operator pasted into the wrong argument is cut to its prefix wherever a message repeats it.
 */
function withoutSecrets(message: string): string {
  return message
    .replace(/\b(rpa_(?:cs|at|pk|adm)_)[A-Za-z0-9_.~-]+/gi, '$1…')
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
