import { type TSchema, Type } from 'typebox';
import { ref } from '../openapi/schema-ref.js';
import { ConfigFile } from './config-file-schema.js';

const PlanFlags = {
  file: ref(ConfigFile),
  prune: Type.Optional(
    Type.Boolean({ description: "Revoke this stack's objects the file no longer names (default false)" }),
  ),
  adopt: Type.Optional(
    Type.Boolean({ description: 'Claim same-named objects no stack manages for this stack (default false)' }),
  ),
  maxDeletes: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 100_000,
      description: 'Most revocations a prune may make (default 10)',
    }),
  ),
};
export const PlanRequest = Type.Object(PlanFlags, { additionalProperties: false });
export const ApplyRequest = Type.Object(
  {
    ...PlanFlags,
    revision: Type.Integer({ minimum: 0, description: 'The revision of the plan being applied' }),
  },
  { additionalProperties: false },
);
export const DumpQuery = Type.Object({
  stack: Type.Optional(
    Type.String({ maxLength: 100, description: "This stack's objects (default: those no stack manages)" }),
  ),
});

const Change = Type.Object({ from: Type.Unknown(), to: Type.Unknown() }, { additionalProperties: false });
const PlanItem = Type.Object(
  {
    kind: Type.Union([
      Type.Literal('client'),
      Type.Literal('application'),
      Type.Literal('passkey'),
      Type.Literal('webhook'),
    ]),
    key: Type.String({ description: 'A name; <application>/<passkey>; <application> <url>' }),
    id: Type.Optional(Type.String({ description: "The existing object's id" })),
    fields: Type.Optional(Type.Record(Type.String(), Change, { description: 'What changes, from and to' })),
    rotate: Type.Optional(Type.Literal(true, { description: 'Its secret is rotated' })),
  },
  { additionalProperties: false },
);
const Problem = Type.Object({ path: Type.String(), message: Type.String() }, { additionalProperties: false });
export const TenancyPlan = Type.Object(
  {
    environment: Type.String(),
    stack: Type.String(),
    revision: Type.Integer({ description: 'The tenancy revision it was computed at: an apply names it' }),
    creations: Type.Array(PlanItem),
    changes: Type.Array(PlanItem),
    adoptions: Type.Array(PlanItem),
    revocations: Type.Array(PlanItem, { description: 'Only with prune, only objects of this stack' }),
    notes: Type.Array(Type.String(), { description: 'What the plan leaves as it is, and why' }),
    problems: Type.Array(Problem, { description: 'What stops an apply: conflicts, too many deletions' }),
  },
  { $id: 'TenancyPlan', additionalProperties: false },
);
export const TenancyApplyResult = Type.Object(
  {
    plan: ref(TenancyPlan),
    applyId: Type.String({ description: 'Named by every audit event of the apply' }),
    secrets: Type.Object(
      {
        applications: Type.Record(
          Type.String(),
          Type.Object(
            { clientId: Type.String(), clientSecret: Type.String() },
            { additionalProperties: false },
          ),
        ),
        passkeys: Type.Record(Type.String(), Type.String(), { description: 'By <application>/<passkey>' }),
        webhooks: Type.Record(Type.String(), Type.String(), { description: 'By <application> <url>' }),
      },
      { additionalProperties: false, description: 'Created by this apply and shown only here' },
    ),
  },
  { $id: 'TenancyApplyResult', additionalProperties: false },
);

export const CONFIG_TAG = {
  name: 'Configuration',
  description: "An environment's tenancy as a file: plan, apply and dump (`rpa config`)",
};

/** The schemas its answers refer to by name (admin-openapi.ts registers them). */
export const CONFIG_ADMIN_SCHEMAS: readonly TSchema[] = [ConfigFile, TenancyPlan, TenancyApplyResult];
