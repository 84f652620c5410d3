import { ref } from '../openapi/schema-ref.js';
import { adminOperations } from './admin-operation.js';
import { EnvironmentParams } from './admin-schemas.js';
import * as S from './config-admin-schemas.js';
import { ConfigFile } from './config-file-schema.js';

/** The tenancy as a file (`rpa config`; docs/operations.md, Admin API). */
export const configOperations = adminOperations('Configuration', {
  planTenancyConfig: {
    summary: 'Plan a configuration file: what an apply would create, change, adopt and revoke',
    scope: 'tenancy:read',
    request: { params: EnvironmentParams, body: S.PlanRequest },
    answer: { status: 200, schema: ref(S.TenancyPlan) },
    errors: { 400: 'The body is not a configuration file and its flags' },
  },
  applyTenancyConfig: {
    summary: "Apply a configuration file's plan in one transaction; new secrets are shown once",
    scope: 'tenancy:write',
    request: { params: EnvironmentParams, body: S.ApplyRequest },
    answer: { status: 200, schema: ref(S.TenancyApplyResult) },
    errors: {
      400: 'The body is not a configuration file and its flags, or a new webhook URL is refused',
      409: 'The tenancy changed since the plan (plan again), or the plan has problems; nothing was applied',
    },
  },
  dumpTenancyConfig: {
    summary: "The environment's tenancy as a configuration file (a stack's objects); never a secret",
    scope: 'tenancy:read',
    request: { params: EnvironmentParams, querystring: S.DumpQuery },
    answer: { status: 200, schema: ref(ConfigFile) },
  },
});
