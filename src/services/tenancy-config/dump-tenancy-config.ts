import type { Environment } from '../../domain/environment.js';
import { groupBy } from '../../domain/group-by.js';
import { iso } from '../../domain/instant.js';
import type { ApplicationSpec, TenancyFile } from '../../domain/tenancy-file.js';
import { WEBHOOK_EVENT_TYPES } from '../../domain/webhook-event.js';
import { readTenancyState } from '../../store/repositories/tenancy-state.js';
import type { ServiceDeps } from '../deps.js';

/** The stack a dump names when asked for the objects no stack manages yet (to be adopted). */
const UNMANAGED_DUMP_STACK = 'default';

/**
 * The environment as a configuration file: a stack's objects, or with no stack named those no
 * stack manages (an `apply --adopt` of it claims them). What a file cannot name is left out:
 * revoked objects and passkeys without a name; clients of others appear only in `clientNames`.
 * Never a secret: only names, limits and labels.
 */
export async function dumpTenancyConfig(
  deps: ServiceDeps,
  input: { environment: Environment; stack?: string | undefined },
): Promise<TenancyFile> {
  const state = await readTenancyState(deps.store.db, input.environment);
  const owner = input.stack ?? null;
  const mine = <T extends { readonly managedBy: string | null }>(o: T) => o.managedBy === owner;
  const apps = state.applications.filter(mine);
  // A client another stack manages (or none does) is granted by name only: a file may name
  // clients the environment holds, and listing it would be a conflict with its owner.
  const clients = state.clients.filter(mine).map((c) => ({ name: c.name }));
  const passkeysOf = groupBy(
    state.passkeys.filter((p) => mine(p) && p.name !== null),
    (p) => p.applicationId,
  );
  const webhooksOf = groupBy(state.webhooks.filter(mine), (w) => w.applicationId);
  const applications = apps.map((a): ApplicationSpec => {
    const passkeys = (passkeysOf.get(a.id) ?? []).map((p) => ({
      name: p.name as string,
      api: p.api,
      rateLimitPerMinute: p.ratePerMinute,
      quotaPerDay: p.quotaPerDay,
      ...(p.expiresAt === null ? {} : { expiresAt: iso(p.expiresAt) }),
    }));
    const webhooks = (webhooksOf.get(a.id) ?? []).map((w) => ({
      url: w.url,
      ...(everyEvent(w.events) ? {} : { events: [...w.events].sort() }),
      ...(w.rotateLabel === null ? {} : { rotate: w.rotateLabel }),
    }));
    return {
      name: a.name,
      clientNames: [...a.clientNames].sort(),
      ...(a.rotateLabel === null ? {} : { rotate: a.rotateLabel }),
      ...(passkeys.length > 0 ? { passkeys } : {}),
      ...(webhooks.length > 0 ? { webhooks } : {}),
    };
  });
  return {
    apiVersion: 'rpa/v1',
    environment: input.environment,
    stack: owner ?? UNMANAGED_DUMP_STACK,
    clients,
    applications,
  };
}

const everyEvent = (events: readonly string[]) =>
  WEBHOOK_EVENT_TYPES.every((t) => events.includes(t)) && events.length === WEBHOOK_EVENT_TYPES.length;
