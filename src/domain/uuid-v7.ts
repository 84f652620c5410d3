import { randomBytes } from 'node:crypto';

/** Ids one writer numbers within one millisecond: 30 bits of counter. */
const MAX_SEQUENCE = 2 ** 30 - 1;

/**
 * A UUIDv7 (RFC 9562 §5.7): the time leads, so ids sort in the order their rows were written and
 * a table reads in order without a separate sequence on either database. With `sequence`, the 30
 * bits after the time hold it (RFC 9562 §6.2, Method 1: a fixed-length counter), so ids written
 * together in one millisecond keep the order they were numbered in; the rest stays random.
 */
export function uuidV7(at: number, sequence?: number): string {
  const b = randomBytes(16);
  b.writeUIntBE(Math.max(0, Math.floor(at)), 0, 6);
  if (sequence === undefined) {
    b[6] = ((b[6] as number) & 0x0f) | 0x70;
    b[8] = ((b[8] as number) & 0x3f) | 0x80;
  } else {
    if (!Number.isInteger(sequence) || sequence < 0 || sequence > MAX_SEQUENCE)
      throw new RangeError(`a UUIDv7 sequence must be an integer from 0 to ${MAX_SEQUENCE}`);
    // Version nibble, 4 + 8 counter bits, variant, 6 + 8 + 4 counter bits: 30 in all.
    b[6] = 0x70 | (sequence >>> 26);
    b[7] = (sequence >>> 18) & 0xff;
    b[8] = 0x80 | ((sequence >>> 12) & 0x3f);
    b[9] = (sequence >>> 4) & 0xff;
    b[10] = ((sequence & 0x0f) << 4) | ((b[10] as number) & 0x0f);
  }
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
