import { Type } from 'typebox';
import { adminOperations, CREATE_ERRORS } from './admin-operation.js';
import { PAGE_HEADERS, PAGE_QUERY } from './admin-page.js';
import { ApplicationParams, Environment, EnvironmentParams } from './admin-schemas.js';
import * as S from './passkey-admin-schemas.js';

const PasskeyParams = Type.Object({
  environment: Environment,
  id: Type.String({ maxLength: 200, description: 'The passkey id (never the passkey itself)' }),
});
const NO_PASSKEY = {
  400: 'A passkey value was given in place of its id',
  404: 'No such passkey in this environment',
} as const;

/** Passkeys of applications (docs/operations.md, Admin API). */
export const passkeyOperations = adminOperations('Passkeys', {
  listPasskeys: {
    summary: "List the environment's passkeys (or one application's), oldest first; never the keys",
    scope: 'tenancy:read',
    request: {
      params: EnvironmentParams,
      querystring: Type.Object({ ...S.PasskeyListQuery, ...PAGE_QUERY }),
    },
    answer: { status: 200, schema: S.AdminPasskeyPage, headers: PAGE_HEADERS },
    errors: {
      400: 'The limit or cursor is invalid, or a secret was given as the application',
      404: 'No such application in this environment',
    },
  },
  createPasskey: {
    summary: 'Issue a passkey for one API of an application; the passkey is shown once',
    scope: 'tenancy:write',
    idempotent: true,
    request: { params: ApplicationParams, body: S.NewPasskey },
    answer: { status: 201, schema: S.CreatedPasskey, description: 'Created' },
    errors: {
      400: `${CREATE_ERRORS[400]}, or the expiry is not in the future`,
      404: 'No such application in this environment',
      409: 'The application is revoked, or has an unrevoked passkey of that name',
    },
  },
  getPasskey: {
    summary: 'Read a passkey',
    scope: 'tenancy:read',
    request: { params: PasskeyParams },
    answer: { status: 200, schema: S.AdminPasskey },
    errors: NO_PASSKEY,
  },
  updatePasskey: {
    summary: "Change a passkey's rate limit, quota or expiry; from the next request on every instance",
    scope: 'tenancy:write',
    request: { params: PasskeyParams, body: S.PasskeyChanges },
    answer: { status: 200, schema: S.AdminPasskey },
    errors: {
      ...NO_PASSKEY,
      400: 'The body is invalid or changes nothing, the expiry is not in the future, or a passkey value was given in place of its id',
    },
  },
  revokePasskey: {
    summary: 'Revoke a passkey at once; revoking it again changes nothing',
    scope: 'tenancy:write',
    request: { params: PasskeyParams },
    answer: { status: 200, schema: S.AdminPasskey },
    errors: NO_PASSKEY,
  },
});
