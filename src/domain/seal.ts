import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// NIST SP 800-38D §8.2.2: a random 96-bit IV, at most 2^32 messages per key.
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Text encrypted and authenticated with AES-256-GCM (NIST SP 800-38D) under a 32-byte key, as
 * IV ‖ tag ‖ ciphertext: what is sealed can be neither read nor changed without the key.
 */
export function seal(key: Buffer, text: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

/** The text `seal` sealed under this key; null for anything else (another key, altered, cut short). */
export function unseal(key: Buffer, sealed: Buffer): string | null {
  if (sealed.length < IV_BYTES + TAG_BYTES) return null;
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES), {
    authTagLength: TAG_BYTES,
  });
  decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return null;
  }
}
