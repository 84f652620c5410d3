import { type TSchema, Type } from 'typebox';
import type { Application } from '../../domain/application.js';
import type { Client } from '../../domain/client.js';
import { iso, isoOrNull } from '../../domain/instant.js';
import { pageOf } from './admin-page.js';
import { Environment, Instant, InstantOrNull } from './admin-schemas.js';

export const AdminClient = Type.Object(
  { id: Type.String(), name: Type.String(), environment: Environment, createdAt: Instant },
  { $id: 'AdminClient', additionalProperties: false },
);
export const AdminClientPage = pageOf(AdminClient, 'AdminClientPage');
export const NewClient = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100, description: 'e.g. Acme-EN_GB' }) },
  { additionalProperties: false },
);

const applicationFields = {
  applicationId: Type.String(),
  name: Type.String(),
  environment: Environment,
  clientId: Type.String({ description: 'The OAuth client_id' }),
  status: Type.Union([Type.Literal('active'), Type.Literal('revoked')]),
  clientNames: Type.Array(Type.String(), { description: 'Client instances it may act for' }),
  secretIds: Type.Array(Type.String(), { description: 'Ids of its active secrets, oldest first' }),
  createdAt: Instant,
  revokedAt: InstantOrNull,
};
export const AdminApplication = Type.Object(applicationFields, {
  $id: 'AdminApplication',
  additionalProperties: false,
});
export const AdminApplicationPage = pageOf(AdminApplication, 'AdminApplicationPage');
export const CreatedApplication = Type.Object(
  { ...applicationFields, clientSecret: Type.String({ description: 'Shown once; only its hash is kept' }) },
  { $id: 'CreatedApplication', additionalProperties: false },
);
export const NewApplication = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: 'Shown as responseSource' }),
    clientNames: Type.Array(Type.String({ maxLength: 100 }), { maxItems: 1000 }),
  },
  { additionalProperties: false },
);
export const CreatedSecret = Type.Object(
  { applicationId: Type.String(), secretId: Type.String(), clientSecret: Type.String() },
  { $id: 'CreatedSecret', additionalProperties: false },
);
export const RetireSecret = Type.Object(
  {
    secretId: Type.Optional(
      Type.String({ maxLength: 100, description: 'Default: the oldest active secret' }),
    ),
  },
  { additionalProperties: false },
);
export const RetiredSecret = Type.Object(
  { applicationId: Type.String(), retiredSecretId: Type.String() },
  { $id: 'RetiredSecret', additionalProperties: false },
);

export const clientView = (c: Client) => ({
  id: c.id,
  name: c.name,
  environment: c.environment,
  createdAt: iso(c.createdAt),
});

export const applicationView = (l: {
  application: Application;
  clientNames: readonly string[];
  secretIds: readonly string[];
}) => ({
  applicationId: l.application.id,
  name: l.application.name,
  environment: l.application.environment,
  clientId: l.application.clientId,
  status: l.application.status,
  clientNames: [...l.clientNames],
  secretIds: [...l.secretIds],
  createdAt: iso(l.application.createdAt),
  revokedAt: isoOrNull(l.application.revokedAt),
});

export const TENANCY_TAG = {
  name: 'Tenancy',
  description: 'Client instances, applications and their secrets',
};

/** The schemas its answers refer to by name (admin-openapi.ts registers them). */
export const TENANCY_ADMIN_SCHEMAS: readonly TSchema[] = [
  AdminClient,
  AdminClientPage,
  AdminApplication,
  AdminApplicationPage,
  CreatedApplication,
  CreatedSecret,
  RetiredSecret,
];
