import type { AuthFailureThrottle } from '../services/auth/create-auth-failure-throttle.js';
import type { TokenVerifier } from '../services/auth/create-token-verifier.js';
import type { ServiceDeps } from '../services/deps.js';
import type { PasskeyLimiter } from '../services/limits/create-passkey-limiter.js';
import type { PasskeyUsage } from '../services/tenancy/create-passkey-usage.js';

/** What the HTTP layer needs beyond the services' own dependencies. */
export interface HttpDeps extends ServiceDeps {
  readonly tokens: TokenVerifier;
  readonly limiter: PasskeyLimiter;
  readonly authThrottle: AuthFailureThrottle;
  /** Each passkey's last use, noted per call and written once a minute. */
  readonly passkeyUsage: PasskeyUsage;
}
