import type { RequestHost } from '../domain/environment.js';
import type { Passkey } from '../domain/passkey.js';
import type { TraceSpan } from '../domain/tracer.js';
import type { ErrorCode } from '../errors.js';
import type { Principal } from '../services/auth/create-token-verifier.js';
import type { AllowedMethods } from './allowed-methods.js';

/** The host a request was addressed to, and the absolute base of links in its answers. */
export interface Site extends RequestHost {
  readonly baseUrl: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The methods each resource is served for (allowed-methods.ts). */
    allowedMethods: AllowedMethods;
  }

  interface FastifyContextConfig {
    /**
     * A load-balancer probe (/healthz, /readyz): also answered when the Host is an IP address
     * that ALLOWED_HOSTS does not name, since probes address an instance, not the service.
     */
    probe?: boolean;
  }

  interface FastifyRequest {
    site: Site;
    principal: Principal | null;
    passkey: Passkey | null;
    /** The catalog code of the error this request was answered with, for the access log. */
    errorCode: ErrorCode | null;
    /** The turn of the event loop the request arrived in (coalesce-answers.ts). */
    arrivedInTurn: number;
    /** The id of the request's trace when its span is recorded, for the access line; null otherwise. */
    traceId: string | null;
    /** The request's SERVER span when recorded (trace-requests.ts); null otherwise. */
    requestSpan: TraceSpan | null;
  }
}
