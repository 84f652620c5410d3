import { hash } from 'node:crypto';

export const SHA256_BYTES = 32;

/**
 * SHA-256 of `data` (a string as UTF-8) written into `into` at `at`. The digest is asked for as
 * latin1 text ('binary': one character per byte, exactly) and written where it goes: a Buffer the
 * native side makes for a digest cost more than the digest itself (0.8 against 0.4 µs in a loop;
 * bench/results/history.md, POST token).
 */
export function sha256Into(data: string | Buffer, into: Buffer, at: number): void {
  into.write(hash('sha256', data, 'binary'), at, SHA256_BYTES, 'latin1');
}
