/**
 * A copy of `value` that shares no memory with the text it was cut from, to keep as a long-lived
 * key. V8 keeps a substring, and a concatenation holding one, as a view of its parent: a client
 * id cut from a form body and kept in a cache would keep the whole body (up to BODY_LIMIT_BYTES)
 * alive for as long as the entry lives. UTF-16 holds any string as it is, lone surrogates
 * included, so the copy equals the value.
 */
export function detachedKey(value: string): string {
  return Buffer.from(value, 'utf16le').toString('utf16le');
}
