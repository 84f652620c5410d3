/**
 * What an admin token may do, per area and verb (docs/operations.md, Admin API). A token holds a
 * list of them; `write` does not imply `read`, so a provisioning job can be given exactly what it
 * uses. `privacy:lift` is apart from any write: lifting a suppression lets a forgotten person's
 * reviews be imported again.
 */
export const ADMIN_SCOPES = [
  'tenancy:read',
  'tenancy:write',
  'webhooks:read',
  'webhooks:write',
  'privacy:read',
  'privacy:lift',
  'keys:write',
  'audit:read',
] as const;

export type AdminScope = (typeof ADMIN_SCOPES)[number];

function isAdminScope(value: string): value is AdminScope {
  return (ADMIN_SCOPES as readonly string[]).includes(value);
}

/** The scopes in a comma- or space-separated list, each once, in catalog order, or the unknown ones. */
export function parseAdminScopes(text: string): { scopes: AdminScope[] } | { unknown: string[] } {
  const given = text.split(/[\s,]+/).filter(Boolean);
  const unknown = given.filter((s) => !isAdminScope(s));
  if (unknown.length > 0) return { unknown };
  return { scopes: ADMIN_SCOPES.filter((s) => given.includes(s)) };
}
