/**
 * Brute-force protection for client authentication (DESIGN.md, Token service): after too many
 * failed attempts for one client id, or from one source address, further attempts are refused
 * with 429 and Retry-After until the window passes.
 */
export interface AuthFailureThrottle {
  /** Throws AppError TOO_MANY_FAILED_ATTEMPTS (with a Retry-After header) when blocked. */
  assertAllowed(clientId: string | null, address: string): Promise<void>;
  recordFailure(clientId: string | null, address: string): Promise<void>;
  /** A successful authentication clears the client id's failures (not the address's). */
  recordSuccess(clientId: string): Promise<void>;
}
