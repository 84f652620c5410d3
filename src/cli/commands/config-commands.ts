import { type FileHandle, open, unlink } from 'node:fs/promises';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { stringify } from 'yaml';
import type { Environment } from '../../domain/environment.js';
import { maskText } from '../../domain/mask-plan.js';
import type { TenancyFile } from '../../domain/tenancy-file.js';
import { planChangesSomething, type TenancyPlan } from '../../domain/tenancy-plan.js';
import { configFileJsonSchema } from '../../http/admin/config-file-schema.js';
import type { TenancyApplyResult } from '../../services/tenancy-config/apply-tenancy-config.js';
import { DEFAULT_MAX_DELETES } from '../../services/tenancy-config/plan-tenancy-config.js';
import { type AdminApi, AdminApiNoAnswer, AdminApiRefusal, query, withAdminApi } from '../admin-api.js';
import { CliError } from '../cli-error.js';
import type { CliIo } from '../cli-io.js';
import { environmentOption, jsonOption } from '../command-options.js';
import { type ConfigInput, InvalidConfigFile, readConfigInput, reportInvalidFile } from '../config-input.js';
import { renderApplied, renderPlan } from '../render-plan.js';

interface PlanFlags {
  readonly prune?: boolean;
  readonly adopt?: boolean;
  readonly maxDeletes?: number;
}

function parseCount(v: string): number {
  if (!/^\d+$/.test(v)) throw new InvalidArgumentError('expected a whole number from 0');
  return Number(v);
}

/** Runs `work` on a valid file; an invalid one is reported a problem a line, exit 1. */
async function withConfigFile(
  io: CliIo,
  path: string,
  work: (input: ConfigInput) => Promise<void>,
): Promise<void> {
  let input: ConfigInput;
  try {
    input = await readConfigInput(io, path);
  } catch (err) {
    if (err instanceof InvalidConfigFile) return reportInvalidFile(io, err);
    throw err;
  }
  try {
    await work(input);
  } catch (err) {
    // The admin API's refusals may quote the file (a webhook host): values from the environment stay masked.
    if (input.mask.at.size === 0 || !(err instanceof Error)) throw err;
    throw new CliError(maskText(err.message.split('\n')[0] ?? '', input.mask));
  }
}

const planBody = (file: TenancyFile, flags: PlanFlags) => ({
  file,
  prune: flags.prune === true,
  adopt: flags.adopt === true,
  maxDeletes: flags.maxDeletes ?? DEFAULT_MAX_DELETES,
});

const plan = (api: AdminApi, input: ConfigInput, flags: PlanFlags) =>
  api.call<TenancyPlan>('POST', `/${input.file.environment}/config/plan`, planBody(input.file, flags));

/** How many secrets applying `p` creates: new applications, passkeys and endpoints, rotations. */
const secretsCreated = (p: TenancyPlan) =>
  p.creations.filter((c) => c.kind !== 'client').length + [...p.changes].filter((c) => c.rotate).length;

// The plan's options, the same for diff and apply: a diff shows what that apply would do.
const pruneOption = new Option('--prune', "revoke this stack's objects the file no longer names");
const adoptOption = new Option('--adopt', 'claim same-named objects no stack manages');
const maxDeletesOption = () =>
  new Option(
    '--max-deletes <n>',
    `most revocations a prune may make (default ${DEFAULT_MAX_DELETES})`,
  ).argParser(parseCount);

export function registerConfigCommands(program: Command, io: CliIo): void {
  const config = program
    .command('config')
    .description("an environment's tenancy as a file: validate, diff, apply, dump");
  config
    .command('validate <file>')
    .description('check a configuration file offline (exit 0 valid, 1 invalid)')
    .action((path: string) =>
      withConfigFile(io, path, async (input) => {
        io.stdout.write(`${input.path}: valid\n`);
      }),
    );
  config
    .command('schema')
    .description("print the configuration file's JSON Schema")
    .action(() => {
      io.stdout.write(`${JSON.stringify(configFileJsonSchema(), null, 2)}\n`);
    });
  config
    .command('diff <file>')
    .description('the plan against the environment (exit 0 nothing to change, 2 changes, 1 error)')
    .addOption(pruneOption)
    .addOption(adoptOption)
    .addOption(maxDeletesOption())
    .addOption(jsonOption())
    .action((path: string, opts: PlanFlags & { json?: boolean }) =>
      withConfigFile(io, path, (input) =>
        withAdminApi(io, async (api) => {
          const p = await plan(api, input, opts);
          io.stdout.write(renderPlan(p, { json: opts.json === true, file: input.file, mask: input.mask }));
          io.exitCode = p.problems.length > 0 ? 1 : planChangesSomething(p) ? 2 : 0;
        }),
      ),
    );
  config
    .command('apply <file>')
    .description('apply the plan in one transaction, all or nothing')
    .addOption(pruneOption)
    .addOption(adoptOption)
    .addOption(maxDeletesOption())
    .option('--secrets-out <path>', 'write the new secrets to this new file (mode 0600)')
    .action((path: string, opts: PlanFlags & { secretsOut?: string }) =>
      withConfigFile(io, path, (input) => withAdminApi(io, (api) => apply(io, api, input, opts))),
    );
  config
    .command('dump')
    .description('the environment as a configuration file on stdout (YAML); never a secret')
    .addOption(environmentOption())
    .option('--stack <stack>', "this stack's objects (default: those no stack manages yet)")
    .action((opts: { env: Environment; stack?: string }) =>
      withAdminApi(io, async (api) => {
        const file = await api.call<TenancyFile>(
          'GET',
          `/${opts.env}/config/dump${query({ stack: opts.stack })}`,
        );
        io.stdout.write(stringify(file, { lineWidth: 0 }));
      }),
    );
}

async function apply(
  io: CliIo,
  api: AdminApi,
  input: ConfigInput,
  opts: PlanFlags & { secretsOut?: string },
) {
  const p = await plan(api, input, opts);
  if (p.problems.length > 0 || !planChangesSomething(p)) {
    io.stdout.write(renderPlan(p, { json: false, file: input.file, mask: input.mask }));
    io.exitCode = p.problems.length > 0 ? 1 : 0;
    return;
  }
  const secrets = secretsCreated(p);
  if (secrets > 0 && !opts.secretsOut && io.stdout.isTTY !== true)
    throw new CliError(
      `the apply creates ${secrets} secret(s) and stdout is not a terminal: give --secrets-out PATH, a new file they are written to; nothing was applied`,
    );
  // Created before the apply, so secrets are never created with nowhere to go.
  const out = opts.secretsOut ? await createSecretsFile(opts.secretsOut) : undefined;
  let result: TenancyApplyResult;
  try {
    result = await api.call<TenancyApplyResult>(
      'POST',
      `/${input.file.environment}/config/apply`,
      { ...planBody(input.file, opts), revision: p.revision },
      { untilAnswered: true },
    );
  } catch (err) {
    // No secret came to be written: the file holds nothing.
    await out?.close();
    if (opts.secretsOut) await unlink(opts.secretsOut).catch(() => {});
    throw applyFailure(err);
  }
  io.stdout.write(renderApplied(result.plan, result.applyId, input));
  const text = `${JSON.stringify(result.secrets, null, 2)}\n`;
  if (out) {
    await out.writeFile(text);
    await out.close();
    io.stdout.write(`Secrets written to ${opts.secretsOut}.\n`);
  } else if (secrets > 0) {
    io.stdout.write(text);
    io.stderr.write('rpa: the secrets above are shown only once: store them now\n');
  }
}

/**
 * An apply refused (4xx) changed nothing: its transaction never committed. Without an answer, or
 * with a server error, it may have committed: saying "nothing changed" then would be untrue.
 */
function applyFailure(err: unknown): unknown {
  const refused = err instanceof AdminApiRefusal && err.status < 500;
  if (refused || !(err instanceof AdminApiRefusal || err instanceof AdminApiNoAnswer)) return err;
  return new CliError(
    `no answer to the apply (${err.message}): it may have been applied, and the secrets it created cannot be shown again; see rpa config diff and rpa audit, and rotate what it created`,
  );
}

/** A new file only its owner may read; an existing one is refused, never overwritten. */
async function createSecretsFile(path: string): Promise<FileHandle> {
  try {
    return await open(path, 'wx', 0o600);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CliError(
      code === 'EEXIST'
        ? `--secrets-out ${path}: the file exists; secrets go only to a new file; nothing was applied`
        : `--secrets-out ${path}: cannot create it (${code ?? (err as Error).message}); nothing was applied`,
    );
  }
}
