import { Type } from 'typebox';
import { adminOperations, CREATE_ERRORS } from './admin-operation.js';
import { PAGE_HEADERS, PAGE_QUERY } from './admin-page.js';
import { ApplicationParams, EnvironmentParams } from './admin-schemas.js';
import * as S from './tenancy-admin-schemas.js';

const NO_APPLICATION = { 404: 'No such application in this environment' } as const;

/** Clients, applications and their secrets (docs/operations.md, Admin API). */
export const tenancyOperations = adminOperations('Tenancy', {
  listClients: {
    summary: "List the environment's client instances, oldest first",
    scope: 'tenancy:read',
    request: { params: EnvironmentParams, querystring: Type.Object(PAGE_QUERY) },
    answer: { status: 200, schema: S.AdminClientPage, headers: PAGE_HEADERS },
    errors: { 400: 'The limit or cursor is invalid' },
  },
  createClient: {
    summary: 'Add a client instance',
    scope: 'tenancy:write',
    idempotent: true,
    request: { params: EnvironmentParams, body: S.NewClient },
    answer: { status: 201, schema: S.AdminClient, description: 'Created' },
    errors: { 409: 'A client of that name exists in this environment' },
  },
  listApplications: {
    summary: "List the environment's applications with their grants and active secret ids",
    scope: 'tenancy:read',
    request: { params: EnvironmentParams, querystring: Type.Object(PAGE_QUERY) },
    answer: { status: 200, schema: S.AdminApplicationPage, headers: PAGE_HEADERS },
    errors: { 400: 'The limit or cursor is invalid' },
  },
  getApplication: {
    summary: 'Read an application',
    scope: 'tenancy:read',
    request: { params: ApplicationParams },
    answer: { status: 200, schema: S.AdminApplication },
    errors: NO_APPLICATION,
  },
  createApplication: {
    summary: 'Create an application; its client secret is shown once',
    scope: 'tenancy:write',
    idempotent: true,
    request: { params: EnvironmentParams, body: S.NewApplication },
    answer: { status: 201, schema: S.CreatedApplication, description: 'Created' },
    errors: { 400: `${CREATE_ERRORS[400]}, or names a client not in this environment` },
  },
  rotateApplicationSecret: {
    summary: 'Add a second active secret; the old one works until retired',
    scope: 'tenancy:write',
    idempotent: true,
    request: { params: ApplicationParams },
    answer: { status: 201, schema: S.CreatedSecret, description: 'Created' },
    errors: {
      ...NO_APPLICATION,
      409: 'The application has two active secrets, or is revoked',
    },
  },
  retireApplicationSecret: {
    summary: 'Retire a secret (by default the oldest) and end the tokens issued with it',
    scope: 'tenancy:write',
    request: { params: ApplicationParams, body: S.RetireSecret },
    answer: { status: 200, schema: S.RetiredSecret },
    errors: {
      400: 'The body is invalid',
      ...NO_APPLICATION,
      409: 'Its last active secret cannot be retired',
    },
  },
  revokeApplication: {
    summary: 'Revoke an application and all of its tokens',
    scope: 'tenancy:write',
    request: { params: ApplicationParams },
    answer: { status: 200, schema: S.AdminApplication },
    errors: NO_APPLICATION,
  },
});
