import { type TSchema, Type } from 'typebox';
import { iso, isoOrNull } from '../../domain/instant.js';
import { type Passkey, passkeyState } from '../../domain/passkey.js';
import { pageOf } from './admin-page.js';
import { Environment, Instant, InstantOrNull } from './admin-schemas.js';

/** The bounds domain/passkey.ts validatePasskeyLimits enforces, stated for the schema too. */
const Limit = (description: string) => Type.Integer({ minimum: 1, maximum: 1_000_000_000, description });
export const RateLimit = Limit('Requests per minute (default: the configured default)');
export const Quota = Limit('Requests per day (default: the configured default)');
/**
 * A passkey's name, unique among its application's unrevoked passkeys. No '/': `rpa config` names
 * a passkey `<application>/<passkey>`, and application names may hold one.
 */
export const PasskeyName = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[^\\s/]([^/\\r\\n]*[^\\s/])?$',
  description: "Its name within the application: no '/', no space at either end",
});
export const Api = Type.Union([Type.Literal('response'), Type.Literal('privacy')], {
  description: 'The API it is accepted by',
});

const passkeyFields = {
  id: Type.String(),
  applicationId: Type.String(),
  environment: Environment,
  name: Type.Union([PasskeyName, Type.Null()], {
    description: 'Its name within the application, if given one',
  }),
  api: Api,
  hint: Type.String({ description: 'The last characters of the passkey, to tell passkeys apart' }),
  rateLimitPerMinute: Type.Integer(),
  quotaPerDay: Type.Integer(),
  status: Type.Union([Type.Literal('active'), Type.Literal('revoked'), Type.Literal('expired')], {
    description: 'Expired: active, but past its expiry; refused like a revoked one',
  }),
  default: Type.Boolean({ description: 'Charged by token calls that name no passkey' }),
  createdAt: Instant,
  expiresAt: InstantOrNull,
  revokedAt: InstantOrNull,
  lastUsedAt: Type.Union([Instant, Type.Null()], {
    description: 'Its latest use, up to a minute behind; null when never used',
  }),
};
export const AdminPasskey = Type.Object(passkeyFields, { $id: 'AdminPasskey', additionalProperties: false });
export const AdminPasskeyPage = pageOf(AdminPasskey, 'AdminPasskeyPage');
export const CreatedPasskey = Type.Object(
  { ...passkeyFields, passkey: Type.String({ description: 'Shown once; only its hash is kept' }) },
  { $id: 'CreatedPasskey', additionalProperties: false },
);

const FutureInstant = Type.String({ format: 'date-time', description: 'A time in the future' });
export const NewPasskey = Type.Object(
  {
    api: Api,
    name: Type.Optional(PasskeyName),
    rateLimitPerMinute: Type.Optional(RateLimit),
    quotaPerDay: Type.Optional(Quota),
    expiresAt: Type.Optional(FutureInstant),
  },
  { additionalProperties: false },
);
export const PasskeyChanges = Type.Object(
  {
    name: Type.Optional(PasskeyName),
    rateLimitPerMinute: Type.Optional(RateLimit),
    quotaPerDay: Type.Optional(Quota),
    expiresAt: Type.Optional(
      Type.Union([FutureInstant, Type.Null()], { description: 'A time in the future; null: never' }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export const PasskeyListQuery = {
  app: Type.Optional(
    Type.String({ maxLength: 200, description: "Only this application's: its id or client id" }),
  ),
};

/** A passkey as the admin API shows it; its status is the one at `now`. */
export const passkeyView = (
  p: Passkey & { readonly lastUsedAt: number | null; readonly name: string | null },
  now: number,
) => ({
  id: p.id,
  applicationId: p.applicationId,
  environment: p.environment,
  name: p.name,
  api: p.api,
  hint: `…${p.keyHint}`,
  rateLimitPerMinute: p.ratePerMinute,
  quotaPerDay: p.quotaPerDay,
  status: passkeyState(p, now),
  default: p.isDefault,
  createdAt: iso(p.createdAt),
  expiresAt: isoOrNull(p.expiresAt),
  revokedAt: isoOrNull(p.revokedAt),
  lastUsedAt: isoOrNull(p.lastUsedAt),
});

export const PASSKEY_TAG = {
  name: 'Passkeys',
  description: 'Passkeys of applications with their rate limit, quota, expiry and last use',
};

/** The schemas its answers refer to by name (admin-openapi.ts registers them). */
export const PASSKEY_ADMIN_SCHEMAS: readonly TSchema[] = [AdminPasskey, AdminPasskeyPage, CreatedPasskey];
