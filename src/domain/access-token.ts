import { createHmac, randomFillSync, timingSafeEqual } from 'node:crypto';
import { CREDENTIAL_PREFIX } from './credentials.js';
import { ENVIRONMENTS, type Environment } from './environment.js';

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
const MAC_BYTES = 32;
const TOKEN_ID_BYTES = 16;
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

function encodeClaims(claims: AccessTokenClaims): Buffer {
  const fixed = Buffer.alloc(FIXED_BYTES);
  fixed.writeUInt8(VERSION, 0);
  fixed.writeUInt8(ENVIRONMENTS.indexOf(claims.environment), 1);
  fixed.writeUIntBE(claims.expiresAt, 2, 6);
  const tokenId = Buffer.from(claims.tokenId, 'base64url');
  if (tokenId.length !== TOKEN_ID_BYTES) throw new Error('a token id is 16 bytes');
  tokenId.copy(fixed, 8);
  const fields = [claims.keyId, claims.applicationId, claims.secretId].map((s) => {
    const bytes = Buffer.from(s, 'utf8');
    if (bytes.length === 0 || bytes.length > MAX_FIELD_BYTES) throw new Error('token field out of range');
    return Buffer.concat([Buffer.of(bytes.length), bytes]);
  });
  return Buffer.concat([fixed, ...fields]);
}

function mac(key: Buffer, body: Buffer): Buffer {
  // The prefix is signed too: a token is only ever an access token.
  return createHmac('sha256', key).update(CREDENTIAL_PREFIX.accessToken).update(body).digest();
}

/**
 * `rpa_at_` + base64url(claims ‖ HMAC-SHA256(key, claims)). base64url stays within RFC 6750's
 * b64token characters, and the prefix keeps secret scanners and log redaction working.
 */
export function signAccessToken(claims: AccessTokenClaims, key: Buffer): string {
  const body = encodeClaims(claims);
  return CREDENTIAL_PREFIX.accessToken + Buffer.concat([body, mac(key, body)]).toString('base64url');
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
export function accessTokenSignedWith(token: UnverifiedAccessToken, key: Buffer): boolean {
  return timingSafeEqual(mac(key, token.body), token.mac);
}
