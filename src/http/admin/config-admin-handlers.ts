import type { ServiceDeps } from '../../services/deps.js';
import { applyTenancyConfig } from '../../services/tenancy-config/apply-tenancy-config.js';
import { dumpTenancyConfig } from '../../services/tenancy-config/dump-tenancy-config.js';
import {
  DEFAULT_MAX_DELETES,
  planTenancyConfig,
  type TenancyConfigInput,
} from '../../services/tenancy-config/plan-tenancy-config.js';
import type { RouteRequest } from '../route-request.js';
import { callerDeps } from './caller-deps.js';
import type { configOperations } from './config-admin-operations.js';

type Ops = typeof configOperations;
type Req<K extends keyof Ops> = RouteRequest<Ops[K]['request']>;

function inputOf(request: Req<'planTenancyConfig'> | Req<'applyTenancyConfig'>): TenancyConfigInput {
  const { body } = request;
  return {
    environment: request.params.environment,
    file: body.file,
    prune: body.prune ?? false,
    adopt: body.adopt ?? false,
    maxDeletes: body.maxDeletes ?? DEFAULT_MAX_DELETES,
  };
}

/** The handlers of config-admin-operations.ts. */
export function configAdminHandlers(deps: ServiceDeps) {
  return {
    planTenancyConfig(request: Req<'planTenancyConfig'>) {
      return planTenancyConfig(deps, inputOf(request));
    },
    applyTenancyConfig(request: Req<'applyTenancyConfig'>) {
      return applyTenancyConfig(callerDeps(deps, request), {
        ...inputOf(request),
        revision: request.body.revision,
      });
    },
    dumpTenancyConfig(request: Req<'dumpTenancyConfig'>) {
      return dumpTenancyConfig(deps, { environment: request.params.environment, stack: request.query.stack });
    },
  };
}
