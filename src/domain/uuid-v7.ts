import { randomBytes } from 'node:crypto';

/**
 * A UUIDv7 (RFC 9562 §5.7): the time leads, so ids sort in the order their rows were written and
 * a table reads in order without a separate sequence on either database.
 */
export function uuidV7(at: number): string {
  const b = randomBytes(16);
  b.writeUIntBE(Math.max(0, Math.floor(at)), 0, 6);
  b[6] = ((b[6] as number) & 0x0f) | 0x70;
  b[8] = ((b[8] as number) & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
