/** A client response is addressed by a GUID (docs/interface.md §2.1): 8-4-4-4-12 hexadecimal digits. */
const GUID_PATTERN = '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$';

const GUID_RE = new RegExp(GUID_PATTERN);

/** GUIDs compare case-insensitively; ids are stored in lower case. Null when not a GUID. */
export function normalizeResponseGuid(value: string): string | null {
  return GUID_RE.test(value) ? value.toLowerCase() : null;
}
