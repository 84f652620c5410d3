import type { AuthFailureThrottle } from '../services/auth-failure-throttle.js';
import type { ServiceDeps } from '../services/deps.js';
import type { PasskeyLimiter } from '../services/passkey-limiter.js';
import type { TokenVerifier } from '../services/verify-access-token.js';

/** What the HTTP layer needs beyond the services' own dependencies. */
export interface HttpDeps extends ServiceDeps {
  readonly tokens: TokenVerifier;
  readonly limiter: PasskeyLimiter;
  readonly authThrottle: AuthFailureThrottle;
}
