import { hash, randomFillSync, timingSafeEqual } from 'node:crypto';
import { CREDENTIAL_PREFIX } from './credentials.js';
import { ENVIRONMENTS, type Environment } from './environment.js';
import { SHA256_BYTES, sha256Into } from './sha256-into.js';

/**
 * What an access token states about itself (docs/design.md, Access tokens). Everything the
 * verifier needs is in the token, so issuing writes nothing and checking reads nothing.
 */
export interface AccessTokenClaims {
  /** The signing key, so keys can rotate while older tokens stay valid. */
  readonly keyId: string;
  readonly applicationId: string;
  readonly environment: Environment;
  /** The client secret the token was obtained with: retiring it ends the token. */
  readonly secretId: string;
  /** Epoch milliseconds. */
  readonly expiresAt: number;
  /** 128 random bits naming this token alone, for RFC 7009 revocation. */
  readonly tokenId: string;
}

const VERSION = 1;
const MAC_BYTES = SHA256_BYTES;
const TOKEN_ID_BYTES = 16;
/** Unpadded base64url of 16 bytes. */
const TOKEN_ID_CHARS = 22;
// version, environment, 6-byte expiry, token id
const FIXED_BYTES = 1 + 1 + 6 + TOKEN_ID_BYTES;
const MAX_FIELD_BYTES = 64;
/** Far beyond any token this server signs: longer input is refused before decoding. */
const MAX_TOKEN_CHARS = 400;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * A call to the CSPRNG costs ~6 µs here whatever its size, more than signing the token: ids are cut
 * from a block of 256 filled at once, as Node does for randomUUID. Each byte is handed out once.
 */
const idPool = Buffer.alloc(TOKEN_ID_BYTES * 256);
let idPoolOffset = idPool.length;

export function newTokenId(): string {
  if (idPoolOffset === idPool.length) {
    randomFillSync(idPool);
    idPoolOffset = 0;
  }
  const id = idPool.toString('base64url', idPoolOffset, idPoolOffset + TOKEN_ID_BYTES);
  idPoolOffset += TOKEN_ID_BYTES;
  return id;
}

/**
 * A signing key made ready for HMAC-SHA256 (RFC 2104 §2): the key padded with ipad and opad, the
 * token prefix already after the inner pad. Node's `createHmac` builds an Hmac object, and looks
 * the digest up again, on every call; two one-shot digests over these buffers give the same MAC
 * without either: inside the server a token's signature went from about 12 to 8 µs of CPU
 * (bench/results/history.md, POST token).
 */
export interface TokenMacKey {
  /** K ⊕ ipad, then the token prefix: the start of the inner digest's input. */
  readonly inner: Buffer;
  /** K ⊕ opad, then room for the inner digest: the outer digest's input, filled per MAC. */
  readonly outer: Buffer;
}

const SHA256_BLOCK_BYTES = 64;
const PREFIX_BYTES = Buffer.byteLength(CREDENTIAL_PREFIX.accessToken);

/** Prepares key material for signAccessToken and accessTokenSignedWith. */
export function tokenMacKey(material: Buffer): TokenMacKey {
  // RFC 2104 §2: a key longer than the block is hashed first; a shorter one is padded with zeros.
  const key = material.length > SHA256_BLOCK_BYTES ? hash('sha256', material, 'buffer') : material;
  const inner = Buffer.alloc(SHA256_BLOCK_BYTES + PREFIX_BYTES, 0x36);
  const outer = Buffer.alloc(SHA256_BLOCK_BYTES + MAC_BYTES, 0x5c);
  for (let i = 0; i < key.length; i += 1) {
    inner[i] = (inner[i] as number) ^ (key[i] as number);
    outer[i] = (outer[i] as number) ^ (key[i] as number);
  }
  // The prefix is signed too: a token is only ever an access token.
  inner.write(CREDENTIAL_PREFIX.accessToken, SHA256_BLOCK_BYTES, 'latin1');
  return { inner, outer };
}

/**
 * HMAC-SHA256(key, prefix ‖ `signed`) into `into` at `at`, where `signed` is the part of
 * `scratch` after the key's inner pad, which the caller has copied to its start. `outer` is
 * shared by every MAC of the key; it is filled and hashed within this call.
 */
function macInto(key: TokenMacKey, scratch: Buffer, into: Buffer, at: number): void {
  sha256Into(scratch, key.outer, SHA256_BLOCK_BYTES);
  sha256Into(key.outer, into, at);
}

function fieldBytes(value: string): number {
  const bytes = Buffer.byteLength(value);
  if (bytes === 0 || bytes > MAX_FIELD_BYTES) throw new Error('token field out of range');
  return bytes;
}

/**
 * `rpa_at_` + base64url(claims ‖ HMAC-SHA256(key, `rpa_at_` ‖ claims)). base64url stays within
 * RFC 6750's b64token characters, and the prefix keeps secret scanners and log redaction working.
 * The claims and their MAC are written into one buffer, after the key's inner pad, so the inner
 * digest reads them where they lie.
 */
export function signAccessToken(claims: AccessTokenClaims, key: TokenMacKey): string {
  const keyIdBytes = fieldBytes(claims.keyId);
  const applicationIdBytes = fieldBytes(claims.applicationId);
  const secretIdBytes = fieldBytes(claims.secretId);
  const start = key.inner.length;
  const bodyEnd = start + FIXED_BYTES + 3 + keyIdBytes + applicationIdBytes + secretIdBytes;
  const buf = Buffer.allocUnsafe(bodyEnd + MAC_BYTES);
  key.inner.copy(buf, 0);
  const environment = ENVIRONMENTS.indexOf(claims.environment);
  if (environment < 0) throw new Error('unknown environment');
  buf[start] = VERSION;
  buf[start + 1] = environment;
  buf.writeUIntBE(claims.expiresAt, start + 2, 6);
  const tokenIdAt = start + 8;
  if (
    claims.tokenId.length !== TOKEN_ID_CHARS ||
    buf.write(claims.tokenId, tokenIdAt, TOKEN_ID_BYTES, 'base64url') !== TOKEN_ID_BYTES
  ) {
    throw new Error('a token id is 16 bytes');
  }
  let at = start + FIXED_BYTES;
  for (const [value, bytes] of [
    [claims.keyId, keyIdBytes],
    [claims.applicationId, applicationIdBytes],
    [claims.secretId, secretIdBytes],
  ] as const) {
    buf[at] = bytes;
    buf.write(value, at + 1, bytes, 'utf8');
    at += 1 + bytes;
  }
  macInto(key, buf.subarray(0, bodyEnd), buf, bodyEnd);
  return CREDENTIAL_PREFIX.accessToken + buf.toString('base64url', start);
}

/** A token taken apart, its signature not yet checked. */
export interface UnverifiedAccessToken {
  readonly claims: AccessTokenClaims;
  readonly body: Buffer;
  readonly mac: Buffer;
}

/**
 * Reads a token's claims without trusting them, or null for anything that is not exactly what
 * signAccessToken writes (one encoding per token: base64url that re-encodes to itself).
 */
export function parseAccessToken(token: string): UnverifiedAccessToken | null {
  const prefix = CREDENTIAL_PREFIX.accessToken;
  if (token.length > MAX_TOKEN_CHARS || !token.startsWith(prefix)) return null;
  const encoded = token.slice(prefix.length);
  if (!BASE64URL.test(encoded)) return null;
  const bytes = Buffer.from(encoded, 'base64url');
  if (bytes.toString('base64url') !== encoded || bytes.length < FIXED_BYTES + 3 + MAC_BYTES) return null;
  const body = bytes.subarray(0, bytes.length - MAC_BYTES);
  if (body.readUInt8(0) !== VERSION) return null;
  const environment = ENVIRONMENTS[body.readUInt8(1)];
  if (!environment) return null;
  const fields: string[] = [];
  let at = FIXED_BYTES;
  for (let i = 0; i < 3; i += 1) {
    const length = body[at];
    if (length === undefined || length === 0 || at + 1 + length > body.length) return null;
    fields.push(body.subarray(at + 1, at + 1 + length).toString('utf8'));
    at += 1 + length;
  }
  if (at !== body.length) return null;
  const [keyId, applicationId, secretId] = fields as [string, string, string];
  return {
    claims: {
      keyId,
      applicationId,
      environment,
      secretId,
      expiresAt: body.readUIntBE(2, 6),
      tokenId: body.subarray(8, 8 + TOKEN_ID_BYTES).toString('base64url'),
    },
    body,
    mac: bytes.subarray(bytes.length - MAC_BYTES),
  };
}

/** Whether the token was signed with `key`, compared in constant time. */
export function accessTokenSignedWith(token: UnverifiedAccessToken, key: TokenMacKey): boolean {
  const scratch = Buffer.allocUnsafe(key.inner.length + token.body.length + MAC_BYTES);
  key.inner.copy(scratch, 0);
  token.body.copy(scratch, key.inner.length);
  const macAt = scratch.length - MAC_BYTES;
  macInto(key, scratch.subarray(0, macAt), scratch, macAt);
  return timingSafeEqual(scratch.subarray(macAt), token.mac);
}
