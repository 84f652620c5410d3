// Generated from sdk/admin-openapi.json by `npm run sdk:generate`: do not edit.

export interface paths {
    "/admin/v1/{environment}/applications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the environment's applications with their grants and active secret ids
         * @description Needs the scope `tenancy:read`.
         */
        get: operations["listApplications"];
        put?: never;
        /**
         * Create an application; its client secret is shown once
         * @description Needs the scope `tenancy:write`.
         */
        post: operations["createApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/{environment}/applications/{app}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an application
         * @description Needs the scope `tenancy:read`.
         */
        get: operations["getApplication"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/{environment}/applications/{app}/passkeys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Issue a passkey for one API of an application; the passkey is shown once
         * @description Needs the scope `tenancy:write`.
         */
        post: operations["createPasskey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/{environment}/applications/{app}/retire-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retire a secret (by default the oldest) and end the tokens issued with it
         * @description Needs the scope `tenancy:write`.
         */
        post: operations["retireApplicationSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/{environment}/applications/{app}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke an application and all of its tokens
         * @description Needs the scope `tenancy:write`.
         */
        post: operations["revokeApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/{environment}/applications/{app}/secrets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add a second active secret; the old one works until retired
         * @description Needs the scope `tenancy:write`.
         */
        post: operations["rotateApplicationSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/{environment}/clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the environment's client instances, oldest first
         * @description Needs the scope `tenancy:read`.
         */
        get: operations["listClients"];
        put?: never;
        /**
         * Add a client instance
         * @description Needs the scope `tenancy:write`.
         */
        post: operations["createClient"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/{environment}/config/apply": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Apply a configuration file's plan in one transaction; new secrets are shown once
         * @description Needs the scope `tenancy:write`.
         */
        post: operations["applyTenancyConfig"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/{environment}/config/dump": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The environment's tenancy as a configuration file (a stack's objects); never a secret
         * @description Needs the scope `tenancy:read`.
         */
        get: operations["dumpTenancyConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/{environment}/config/plan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Plan a configuration file: what an apply would create, change, adopt and revoke
         * @description Needs the scope `tenancy:read`.
         */
        post: operations["planTenancyConfig"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/{environment}/passkeys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the environment's passkeys (or one application's), oldest first; never the keys
         * @description Needs the scope `tenancy:read`.
         */
        get: operations["listPasskeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/{environment}/passkeys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a passkey
         * @description Needs the scope `tenancy:read`.
         */
        get: operations["getPasskey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a passkey's rate limit, quota or expiry; from the next request on every instance
         * @description Needs the scope `tenancy:write`.
         */
        patch: operations["updatePasskey"];
        trace?: never;
    };
    "/admin/v1/{environment}/passkeys/{id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke a passkey at once; revoking it again changes nothing
         * @description Needs the scope `tenancy:write`.
         */
        post: operations["revokePasskey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/{environment}/privacy-requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the privacy requests of every application of the environment, by submission time
         * @description Needs the scope `privacy:read`.
         */
        get: operations["listPrivacyRequests"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/{environment}/suppression-lifts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Let a forgotten person's reviews be imported again in some client instances
         * @description Needs the scope `privacy:lift`.
         */
        post: operations["liftSuppression"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/{environment}/webhook-deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the environment's deliveries, newest event first: status, attempts, last answer
         * @description Needs the scope `webhooks:read`.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/{environment}/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the environment's webhook endpoints, oldest first, never their secrets
         * @description Needs the scope `webhooks:read`.
         */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Register an endpoint for an application; its signing secret is shown once
         * @description Needs the scope `webhooks:write`.
         */
        post: operations["addWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/{environment}/webhook-endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a webhook endpoint
         * @description Needs the scope `webhooks:read`.
         */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /**
         * Remove an endpoint; its undelivered events are dropped
         * @description Needs the scope `webhooks:write`.
         */
        delete: operations["removeWebhookEndpoint"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/{environment}/webhook-endpoints/{id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send to an endpoint again after it answered 410 Gone
         * @description Needs the scope `webhooks:write`.
         */
        post: operations["enableWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/{environment}/webhook-endpoints/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Give an endpoint a new signing secret; the old one also signs during the grace period
         * @description Needs the scope `webhooks:write`.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/audit-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the audit trail (administrative actions, privacy request changes), by time
         * @description Needs the scope `audit:read`.
         */
        get: operations["listAuditEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/signing-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add a token signing key (of both environments); older keys verify until retired
         * @description Needs the scope `keys:write`.
         */
        post: operations["rotateSigningKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AdminApplication: {
            applicationId: string;
            /** @description The OAuth client_id */
            clientId: string;
            /** @description Client instances it may act for */
            clientNames: string[];
            /** Format: date-time */
            createdAt: string;
            /** @description The environment the call works in: every call names it */
            environment: "production" | "staging";
            name: string;
            revokedAt: string | null;
            /** @description Ids of its active secrets, oldest first */
            secretIds: string[];
            status: "active" | "revoked";
        };
        AdminApplicationPage: {
            data: components["schemas"]["AdminApplication"][];
            next: string | null;
        };
        AdminAuditEvent: {
            action: string;
            /** @description cli:<user>, admin-token:<id>, application:<id>, worker:<owner> ... */
            actor: string;
            /** @description Ids, counts and settings; never personal data or a credential */
            details: {
                [key: string]: unknown;
            };
            id: string;
            /** Format: date-time */
            occurredAt: string;
            targetId: string;
            targetType: string;
        };
        AdminAuditEventPage: {
            data: components["schemas"]["AdminAuditEvent"][];
            next: string | null;
        };
        AdminClient: {
            /** Format: date-time */
            createdAt: string;
            /** @description The environment the call works in: every call names it */
            environment: "production" | "staging";
            id: string;
            name: string;
        };
        AdminClientPage: {
            data: components["schemas"]["AdminClient"][];
            next: string | null;
        };
        AdminPasskey: {
            /** @description The API it is accepted by */
            api: "response" | "privacy";
            applicationId: string;
            /** Format: date-time */
            createdAt: string;
            /** @description Charged by token calls that name no passkey */
            default: boolean;
            /** @description The environment the call works in: every call names it */
            environment: "production" | "staging";
            expiresAt: string | null;
            /** @description The last characters of the passkey, to tell passkeys apart */
            hint: string;
            id: string;
            /** @description Its latest use, up to a minute behind; null when never used */
            lastUsedAt: string | null;
            /** @description Its name within the application, if given one */
            name: string | null;
            quotaPerDay: number;
            rateLimitPerMinute: number;
            revokedAt: string | null;
            /** @description Expired: active, but past its expiry; refused like a revoked one */
            status: "active" | "revoked" | "expired";
        };
        AdminPasskeyPage: {
            data: components["schemas"]["AdminPasskey"][];
            next: string | null;
        };
        AdminPrivacyRequest: {
            /** @description The application that filed it */
            applicationId: string;
            /** @description Client instances it covers, by name */
            clientNames: string[];
            completedAt: string | null;
            /** Format: date-time */
            dueAt: string;
            id: string;
            status: "PENDING" | "COMPLETED";
            /** Format: date-time */
            submittedAt: string;
            type: "forget" | "access";
        };
        AdminPrivacyRequestPage: {
            data: components["schemas"]["AdminPrivacyRequest"][];
            next: string | null;
        };
        AdminWebhookDelivery: {
            applicationId: string;
            attempts: number;
            /** Format: date-time */
            createdAt: string;
            endpointId: string;
            event: string;
            finishedAt: string | null;
            id: string;
            lastAttemptAt: string | null;
            lastError: string | null;
            /** @description HTTP status of the last attempt */
            lastStatus: number | null;
            /** @description When it is tried again (pending only) */
            nextAttemptAt: string | null;
            /** @description pending until a 2xx answer (delivered), or its last attempt or a 410 (failed) */
            status: "pending" | "delivered" | "failed";
            /** @description The event id (msg_…), its webhook-id header */
            webhookId: string;
        };
        AdminWebhookDeliveryPage: {
            data: components["schemas"]["AdminWebhookDelivery"][];
            next: string | null;
        };
        AdminWebhookEndpoint: {
            applicationId: string;
            /** Format: date-time */
            createdAt: string;
            disabledAt: string | null;
            disabledReason: string | null;
            /** @description The environment the call works in: every call names it */
            environment: "production" | "staging";
            /** @description The event types it receives */
            events: string[];
            id: string;
            /** @description Secrets that sign now: two during a rotation's grace period (never the secrets) */
            liveSecrets: number;
            /** @description disabled once it answered 410 Gone, until it is enabled again */
            status: "enabled" | "disabled";
            /** @description Where the events are POSTed */
            url: string;
        };
        AdminWebhookEndpointPage: {
            data: components["schemas"]["AdminWebhookEndpoint"][];
            next: string | null;
        };
        /** reviews-partner-api tenancy configuration (rpa/v1) */
        ConfigFile: {
            /** @enum {string} */
            apiVersion: "rpa/v1";
            applications?: {
                clientNames?: string[];
                /** @description Shown as responseSource */
                name: string;
                passkeys?: {
                    /** @description The API it is accepted by */
                    api: "response" | "privacy";
                    /**
                     * Format: date-time
                     * @description Default: never
                     */
                    expiresAt?: string;
                    /** @description Its name within the application: no '/', no space at either end */
                    name: string;
                    /** @description Requests per day (default: the configured default) */
                    quotaPerDay?: number;
                    /** @description Requests per minute (default: the configured default) */
                    rateLimitPerMinute?: number;
                }[];
                /** @description A label of the current secret: a different one rotates it (the old one keeps working for a while) */
                rotate?: string;
                webhooks?: {
                    /** @description Default: every event type */
                    events?: ("privacy.forget_request.created" | "privacy.forget_request.completed" | "privacy.access_request.created" | "privacy.access_request.completed")[];
                    /** @description A label of the current secret: a different one rotates it (the old one keeps working for a while) */
                    rotate?: string;
                    /** @description https, on a public address */
                    url: string;
                }[];
            }[];
            clients?: {
                /** @description e.g. Acme-EN_GB */
                name: string;
            }[];
            /** @description The environment the call works in: every call names it */
            environment: "production" | "staging";
            /** @description Who manages these objects: a prune revokes only what this stack created or adopted */
            stack: string;
        };
        CreatedApplication: {
            applicationId: string;
            /** @description The OAuth client_id */
            clientId: string;
            /** @description Client instances it may act for */
            clientNames: string[];
            /** @description Shown once; only its hash is kept */
            clientSecret: string;
            /** Format: date-time */
            createdAt: string;
            /** @description The environment the call works in: every call names it */
            environment: "production" | "staging";
            name: string;
            revokedAt: string | null;
            /** @description Ids of its active secrets, oldest first */
            secretIds: string[];
            status: "active" | "revoked";
        };
        CreatedPasskey: {
            /** @description The API it is accepted by */
            api: "response" | "privacy";
            applicationId: string;
            /** Format: date-time */
            createdAt: string;
            /** @description Charged by token calls that name no passkey */
            default: boolean;
            /** @description The environment the call works in: every call names it */
            environment: "production" | "staging";
            expiresAt: string | null;
            /** @description The last characters of the passkey, to tell passkeys apart */
            hint: string;
            id: string;
            /** @description Its latest use, up to a minute behind; null when never used */
            lastUsedAt: string | null;
            /** @description Its name within the application, if given one */
            name: string | null;
            /** @description Shown once; only its hash is kept */
            passkey: string;
            quotaPerDay: number;
            rateLimitPerMinute: number;
            revokedAt: string | null;
            /** @description Expired: active, but past its expiry; refused like a revoked one */
            status: "active" | "revoked" | "expired";
        };
        CreatedSecret: {
            applicationId: string;
            clientSecret: string;
            secretId: string;
        };
        CreatedWebhookEndpoint: {
            applicationId: string;
            /** Format: date-time */
            createdAt: string;
            disabledAt: string | null;
            disabledReason: string | null;
            /** @description The environment the call works in: every call names it */
            environment: "production" | "staging";
            /** @description The event types it receives */
            events: string[];
            id: string;
            /** @description Secrets that sign now: two during a rotation's grace period (never the secrets) */
            liveSecrets: number;
            /** @description The signing secret (whsec_…): shown once, give it to the receiver */
            secret: string;
            /** @description disabled once it answered 410 Gone, until it is enabled again */
            status: "enabled" | "disabled";
            /** @description Where the events are POSTed */
            url: string;
        };
        ProblemDetails: {
            code: string;
            detail: string;
            errors?: {
                field: string;
                message: string;
            }[];
            instance?: string;
            status: number;
            title: string;
            type: string;
        } & {
            [key: string]: unknown;
        };
        RetiredSecret: {
            applicationId: string;
            retiredSecretId: string;
        };
        RotatedSigningKey: {
            keyId: string;
            /** Format: date-time */
            previousKeysRetireAt: string;
        };
        RotatedWebhookSecret: {
            endpointId: string;
            /** Format: date-time */
            previousSecretSignsUntil: string;
            /** @description The new signing secret (whsec_…): shown once */
            secret: string;
        };
        SuppressionLifts: {
            lifted: {
                clientName: string;
                /** @description The lift record */
                id: string;
                /** @description How many of the person's identifiers it freed */
                identifiers: number;
            }[];
        };
        TenancyApplyResult: {
            /** @description Named by every audit event of the apply */
            applyId: string;
            plan: components["schemas"]["TenancyPlan"];
            /** @description Created by this apply and shown only here */
            secrets: {
                applications: {
                    [key: string]: {
                        clientId: string;
                        clientSecret: string;
                    };
                };
                /** @description By <application>/<passkey> */
                passkeys: {
                    [key: string]: string;
                };
                /** @description By <application> <url> */
                webhooks: {
                    [key: string]: string;
                };
            };
        };
        TenancyPlan: {
            adoptions: {
                /** @description What changes, from and to */
                fields?: {
                    [key: string]: {
                        from: unknown;
                        to: unknown;
                    };
                };
                /** @description The existing object's id */
                id?: string;
                /** @description A name; <application>/<passkey>; <application> <url> */
                key: string;
                kind: "client" | "application" | "passkey" | "webhook";
                /**
                 * @description Its secret is rotated
                 * @enum {boolean}
                 */
                rotate?: true;
            }[];
            changes: {
                /** @description What changes, from and to */
                fields?: {
                    [key: string]: {
                        from: unknown;
                        to: unknown;
                    };
                };
                /** @description The existing object's id */
                id?: string;
                /** @description A name; <application>/<passkey>; <application> <url> */
                key: string;
                kind: "client" | "application" | "passkey" | "webhook";
                /**
                 * @description Its secret is rotated
                 * @enum {boolean}
                 */
                rotate?: true;
            }[];
            creations: {
                /** @description What changes, from and to */
                fields?: {
                    [key: string]: {
                        from: unknown;
                        to: unknown;
                    };
                };
                /** @description The existing object's id */
                id?: string;
                /** @description A name; <application>/<passkey>; <application> <url> */
                key: string;
                kind: "client" | "application" | "passkey" | "webhook";
                /**
                 * @description Its secret is rotated
                 * @enum {boolean}
                 */
                rotate?: true;
            }[];
            environment: string;
            /** @description What the plan leaves as it is, and why */
            notes: string[];
            /** @description What stops an apply: conflicts, too many deletions */
            problems: {
                message: string;
                path: string;
            }[];
            /** @description The tenancy revision it was computed at: an apply names it */
            revision: number;
            /** @description Only with prune, only objects of this stack */
            revocations: {
                /** @description What changes, from and to */
                fields?: {
                    [key: string]: {
                        from: unknown;
                        to: unknown;
                    };
                };
                /** @description The existing object's id */
                id?: string;
                /** @description A name; <application>/<passkey>; <application> <url> */
                key: string;
                kind: "client" | "application" | "passkey" | "webhook";
                /**
                 * @description Its secret is rotated
                 * @enum {boolean}
                 */
                rotate?: true;
            }[];
            stack: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listApplications: {
        parameters: {
            query?: {
                /** @description Where the page starts: from the `next` link of the previous one */
                cursor?: string;
                /** @description Items per page (default 100) */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The environment the call works in: every call names it */
                environment: "production" | "staging";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 413 (body too large), 415 (not JSON) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    /** @description RFC 8288: rel="next", the next page, when there is one */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminApplicationPage"];
                };
            };
            /** @description The limit or cursor is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No admin token, or one that is unknown, revoked or expired */
            401: {
                headers: {
                    /** @description RFC 6750 §3: the Bearer challenge */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The admin token lacks the scope this operation needs (WWW-Authenticate names it) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many failed authentications from this address; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    createApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the create safe to retry: the same key and body within 24 hours answer the first result again, creating nothing; another body is 422 */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The environment the call works in: every call names it */
                environment: "production" | "staging";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    clientNames: string[];
                    /** @description Shown as responseSource */
                    name: string;
                };
            };
        };
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 413 (body too large), 415 (not JSON) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    /** @description true when this is the first answer again, for a retry with the same Idempotency-Key */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedApplication"];
                };
            };
            /** @description The body or the Idempotency-Key is invalid, or names a client not in this environment */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No admin token, or one that is unknown, revoked or expired */
            401: {
                headers: {
                    /** @description RFC 6750 §3: the Bearer challenge */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The admin token lacks the scope this operation needs (WWW-Authenticate names it) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The Idempotency-Key was used with another request in the last 24 hours */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many failed authentications from this address; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    getApplication: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The application id or its client id */
                app: string;
                /** @description The environment the call works in: every call names it */
                environment: "production" | "staging";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 413 (body too large), 415 (not JSON) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminApplication"];
                };
            };
            /** @description No admin token, or one that is unknown, revoked or expired */
            401: {
                headers: {
                    /** @description RFC 6750 §3: the Bearer challenge */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The admin token lacks the scope this operation needs (WWW-Authenticate names it) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such application in this environment */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many failed authentications from this address; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    createPasskey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the create safe to retry: the same key and body within 24 hours answer the first result again, creating nothing; another body is 422 */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The application id or its client id */
                app: string;
                /** @description The environment the call works in: every call names it */
                environment: "production" | "staging";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The API it is accepted by */
                    api: "response" | "privacy";
                    /**
                     * Format: date-time
                     * @description A time in the future
                     */
                    expiresAt?: string;
                    /** @description Its name within the application: no '/', no space at either end */
                    name?: string;
                    /** @description Requests per day (default: the configured default) */
                    quotaPerDay?: number;
                    /** @description Requests per minute (default: the configured default) */
                    rateLimitPerMinute?: number;
                };
            };
        };
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 413 (body too large), 415 (not JSON) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    /** @description true when this is the first answer again, for a retry with the same Idempotency-Key */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedPasskey"];
                };
            };
            /** @description The body or the Idempotency-Key is invalid, or the expiry is not in the future */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No admin token, or one that is unknown, revoked or expired */
            401: {
                headers: {
                    /** @description RFC 6750 §3: the Bearer challenge */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The admin token lacks the scope this operation needs (WWW-Authenticate names it) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such application in this environment */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The application is revoked, or has an unrevoked passkey of that name */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The Idempotency-Key was used with another request in the last 24 hours */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many failed authentications from this address; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    retireApplicationSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The application id or its client id */
                app: string;
                /** @description The environment the call works in: every call names it */
                environment: "production" | "staging";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Default: the oldest active secret */
                    secretId?: string;
                };
            };
        };
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 413 (body too large), 415 (not JSON) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetiredSecret"];
                };
            };
            /** @description The body is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No admin token, or one that is unknown, revoked or expired */
            401: {
                headers: {
                    /** @description RFC 6750 §3: the Bearer challenge */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The admin token lacks the scope this operation needs (WWW-Authenticate names it) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such application in this environment */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Its last active secret cannot be retired */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many failed authentications from this address; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    revokeApplication: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The application id or its client id */
                app: string;
                /** @description The environment the call works in: every call names it */
                environment: "production" | "staging";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 413 (body too large), 415 (not JSON) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminApplication"];
                };
            };
            /** @description No admin token, or one that is unknown, revoked or expired */
            401: {
                headers: {
                    /** @description RFC 6750 §3: the Bearer challenge */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The admin token lacks the scope this operation needs (WWW-Authenticate names it) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such application in this environment */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many failed authentications from this address; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    rotateApplicationSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the create safe to retry: the same key and body within 24 hours answer the first result again, creating nothing; another body is 422 */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The application id or its client id */
                app: string;
                /** @description The environment the call works in: every call names it */
                environment: "production" | "staging";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 413 (body too large), 415 (not JSON) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    /** @description true when this is the first answer again, for a retry with the same Idempotency-Key */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedSecret"];
                };
            };
            /** @description The body or the Idempotency-Key is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No admin token, or one that is unknown, revoked or expired */
            401: {
                headers: {
                    /** @description RFC 6750 §3: the Bearer challenge */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The admin token lacks the scope this operation needs (WWW-Authenticate names it) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such application in this environment */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The application has two active secrets, or is revoked */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The Idempotency-Key was used with another request in the last 24 hours */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many failed authentications from this address; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    listClients: {
        parameters: {
            query?: {
                /** @description Where the page starts: from the `next` link of the previous one */
                cursor?: string;
                /** @description Items per page (default 100) */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The environment the call works in: every call names it */
                environment: "production" | "staging";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 413 (body too large), 415 (not JSON) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    /** @description RFC 8288: rel="next", the next page, when there is one */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminClientPage"];
                };
            };
            /** @description The limit or cursor is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No admin token, or one that is unknown, revoked or expired */
            401: {
                headers: {
                    /** @description RFC 6750 §3: the Bearer challenge */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The admin token lacks the scope this operation needs (WWW-Authenticate names it) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many failed authentications from this address; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    createClient: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the create safe to retry: the same key and body within 24 hours answer the first result again, creating nothing; another body is 422 */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The environment the call works in: every call names it */
                environment: "production" | "staging";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description e.g. Acme-EN_GB */
                    name: string;
                };
            };
        };
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 413 (body too large), 415 (not JSON) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    /** @description true when this is the first answer again, for a retry with the same Idempotency-Key */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminClient"];
                };
            };
            /** @description The body or the Idempotency-Key is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No admin token, or one that is unknown, revoked or expired */
            401: {
                headers: {
                    /** @description RFC 6750 §3: the Bearer challenge */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The admin token lacks the scope this operation needs (WWW-Authenticate names it) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description A client of that name exists in this environment */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The Idempotency-Key was used with another request in the last 24 hours */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many failed authentications from this address; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    applyTenancyConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The environment the call works in: every call names it */
                environment: "production" | "staging";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Claim same-named objects no stack manages for this stack (default false) */
                    adopt?: boolean;
                    file: components["schemas"]["ConfigFile"];
                    /** @description Most revocations a prune may make (default 10) */
                    maxDeletes?: number;
                    /** @description Revoke this stack's objects the file no longer names (default false) */
                    prune?: boolean;
                    /** @description The revision of the plan being applied */
                    revision: number;
                };
            };
        };
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 413 (body too large), 415 (not JSON) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenancyApplyResult"];
                };
            };
            /** @description The body is not a configuration file and its flags, or a new webhook URL is refused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No admin token, or one that is unknown, revoked or expired */
            401: {
                headers: {
                    /** @description RFC 6750 §3: the Bearer challenge */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The admin token lacks the scope this operation needs (WWW-Authenticate names it) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The tenancy changed since the plan (plan again), or the plan has problems; nothing was applied */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many failed authentications from this address; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    dumpTenancyConfig: {
        parameters: {
            query?: {
                /** @description This stack's objects (default: those no stack manages) */
                stack?: string;
            };
            header?: never;
            path: {
                /** @description The environment the call works in: every call names it */
                environment: "production" | "staging";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 413 (body too large), 415 (not JSON) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConfigFile"];
                };
            };
            /** @description No admin token, or one that is unknown, revoked or expired */
            401: {
                headers: {
                    /** @description RFC 6750 §3: the Bearer challenge */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The admin token lacks the scope this operation needs (WWW-Authenticate names it) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many failed authentications from this address; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    planTenancyConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The environment the call works in: every call names it */
                environment: "production" | "staging";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Claim same-named objects no stack manages for this stack (default false) */
                    adopt?: boolean;
                    file: components["schemas"]["ConfigFile"];
                    /** @description Most revocations a prune may make (default 10) */
                    maxDeletes?: number;
                    /** @description Revoke this stack's objects the file no longer names (default false) */
                    prune?: boolean;
                };
            };
        };
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 413 (body too large), 415 (not JSON) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenancyPlan"];
                };
            };
            /** @description The body is not a configuration file and its flags */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No admin token, or one that is unknown, revoked or expired */
            401: {
                headers: {
                    /** @description RFC 6750 §3: the Bearer challenge */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The admin token lacks the scope this operation needs (WWW-Authenticate names it) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many failed authentications from this address; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    listPasskeys: {
        parameters: {
            query?: {
                /** @description Only this application's: its id or client id */
                app?: string;
                /** @description Where the page starts: from the `next` link of the previous one */
                cursor?: string;
                /** @description Items per page (default 100) */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The environment the call works in: every call names it */
                environment: "production" | "staging";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 413 (body too large), 415 (not JSON) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    /** @description RFC 8288: rel="next", the next page, when there is one */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminPasskeyPage"];
                };
            };
            /** @description The limit or cursor is invalid, or a secret was given as the application */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No admin token, or one that is unknown, revoked or expired */
            401: {
                headers: {
                    /** @description RFC 6750 §3: the Bearer challenge */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The admin token lacks the scope this operation needs (WWW-Authenticate names it) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such application in this environment */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many failed authentications from this address; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    getPasskey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The environment the call works in: every call names it */
                environment: "production" | "staging";
                /** @description The passkey id (never the passkey itself) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 413 (body too large), 415 (not JSON) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminPasskey"];
                };
            };
            /** @description A passkey value was given in place of its id */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No admin token, or one that is unknown, revoked or expired */
            401: {
                headers: {
                    /** @description RFC 6750 §3: the Bearer challenge */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The admin token lacks the scope this operation needs (WWW-Authenticate names it) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such passkey in this environment */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many failed authentications from this address; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    updatePasskey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The environment the call works in: every call names it */
                environment: "production" | "staging";
                /** @description The passkey id (never the passkey itself) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A time in the future; null: never */
                    expiresAt?: string | null;
                    /** @description Its name within the application: no '/', no space at either end */
                    name?: string;
                    /** @description Requests per day (default: the configured default) */
                    quotaPerDay?: number;
                    /** @description Requests per minute (default: the configured default) */
                    rateLimitPerMinute?: number;
                };
            };
        };
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 413 (body too large), 415 (not JSON) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminPasskey"];
                };
            };
            /** @description The body is invalid or changes nothing, the expiry is not in the future, or a passkey value was given in place of its id */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No admin token, or one that is unknown, revoked or expired */
            401: {
                headers: {
                    /** @description RFC 6750 §3: the Bearer challenge */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The admin token lacks the scope this operation needs (WWW-Authenticate names it) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such passkey in this environment */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many failed authentications from this address; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    revokePasskey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The environment the call works in: every call names it */
                environment: "production" | "staging";
                /** @description The passkey id (never the passkey itself) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 413 (body too large), 415 (not JSON) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminPasskey"];
                };
            };
            /** @description A passkey value was given in place of its id */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No admin token, or one that is unknown, revoked or expired */
            401: {
                headers: {
                    /** @description RFC 6750 §3: the Bearer challenge */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The admin token lacks the scope this operation needs (WWW-Authenticate names it) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such passkey in this environment */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many failed authentications from this address; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    listPrivacyRequests: {
        parameters: {
            query?: {
                /** @description Only this application (its id or client id) */
                applicationId?: string;
                /** @description Where the page starts: from the `next` link of the previous one */
                cursor?: string;
                /** @description Items per page (default 100) */
                limit?: number;
                /** @description oldest first (default) or newest first; the `next` link keeps it */
                order?: "oldest" | "newest";
                status?: "PENDING" | "COMPLETED";
                type?: "forget" | "access";
            };
            header?: never;
            path: {
                /** @description The environment the call works in: every call names it */
                environment: "production" | "staging";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 413 (body too large), 415 (not JSON) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    /** @description RFC 8288: rel="next", the next page, when there is one */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminPrivacyRequestPage"];
                };
            };
            /** @description A filter, the limit or the cursor is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No admin token, or one that is unknown, revoked or expired */
            401: {
                headers: {
                    /** @description RFC 6750 §3: the Bearer challenge */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The admin token lacks the scope this operation needs (WWW-Authenticate names it) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The application named by applicationId is not one of this environment */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many failed authentications from this address; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    liftSuppression: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the create safe to retry: the same key and body within 24 hours answer the first result again, creating nothing; another body is 422 */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The environment the call works in: every call names it */
                environment: "production" | "staging";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Only in these client instances (default: every one of the environment) */
                    clientNames?: string[];
                    /** @description Any identifier of the forgotten person, named as in a Privacy API forget request; used to find the suppression, never kept, logged or audited */
                    identifiers: {
                        authorId?: string;
                        emailAddress?: string;
                        facebookUsername?: string;
                        instagramUsername?: string;
                        phoneNumber?: string;
                        twitterUsername?: string;
                        vimeoUsername?: string;
                        youtubeChannelId?: string;
                        youtubeUsername?: string;
                    };
                    /** @description Who lifts it (default: the caller) */
                    liftedBy?: string;
                    /** @description Why it is lifted; kept in the lift record */
                    reason: string;
                };
            };
        };
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 413 (body too large), 415 (not JSON) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Lifted */
            201: {
                headers: {
                    /** @description true when this is the first answer again, for a retry with the same Idempotency-Key */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SuppressionLifts"];
                };
            };
            /** @description The body or the Idempotency-Key is invalid: no identifier, an invalid one, no reason, or a client not in this environment */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No admin token, or one that is unknown, revoked or expired */
            401: {
                headers: {
                    /** @description RFC 6750 §3: the Bearer challenge */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The admin token lacks the scope this operation needs (WWW-Authenticate names it) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No forgotten person matches these identifiers in these client instances */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The Idempotency-Key was used with another request in the last 24 hours */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many failed authentications from this address; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Only this application (id or client id) of the environment */
                app?: string;
                /** @description Where the page starts: from the `next` link of the previous one */
                cursor?: string;
                /** @description Only this endpoint */
                endpoint?: string;
                /** @description Items per page (default 100) */
                limit?: number;
                /** @description pending until a 2xx answer (delivered), or its last attempt or a 410 (failed) */
                status?: "pending" | "delivered" | "failed";
                /** @description Only this event (its webhook-id, msg_…) */
                webhookId?: string;
            };
            header?: never;
            path: {
                /** @description The environment the call works in: every call names it */
                environment: "production" | "staging";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 413 (body too large), 415 (not JSON) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    /** @description RFC 8288: rel="next", the next page, when there is one */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminWebhookDeliveryPage"];
                };
            };
            /** @description A filter, the limit or the cursor is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No admin token, or one that is unknown, revoked or expired */
            401: {
                headers: {
                    /** @description RFC 6750 §3: the Bearer challenge */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The admin token lacks the scope this operation needs (WWW-Authenticate names it) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such application or endpoint in this environment */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many failed authentications from this address; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: {
                /** @description Only this application (id or client id) of the environment */
                app?: string;
                /** @description Where the page starts: from the `next` link of the previous one */
                cursor?: string;
                /** @description Items per page (default 100) */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The environment the call works in: every call names it */
                environment: "production" | "staging";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 413 (body too large), 415 (not JSON) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    /** @description RFC 8288: rel="next", the next page, when there is one */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminWebhookEndpointPage"];
                };
            };
            /** @description The limit, cursor or app is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No admin token, or one that is unknown, revoked or expired */
            401: {
                headers: {
                    /** @description RFC 6750 §3: the Bearer challenge */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The admin token lacks the scope this operation needs (WWW-Authenticate names it) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such application in this environment */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many failed authentications from this address; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    addWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the create safe to retry: the same key and body within 24 hours answer the first result again, creating nothing; another body is 422 */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The environment the call works in: every call names it */
                environment: "production" | "staging";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The application, by id or client id */
                    app: string;
                    /** @description Default: every event type */
                    events?: string[];
                    /** @description https, on a public address */
                    url: string;
                };
            };
        };
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 413 (body too large), 415 (not JSON) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    /** @description true when this is the first answer again, for a retry with the same Idempotency-Key */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedWebhookEndpoint"];
                };
            };
            /** @description The body or the Idempotency-Key is invalid: a URL that is not public https, or an unknown event type */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No admin token, or one that is unknown, revoked or expired */
            401: {
                headers: {
                    /** @description RFC 6750 §3: the Bearer challenge */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The admin token lacks the scope this operation needs (WWW-Authenticate names it) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such application in this environment */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The application is revoked, or has as many endpoints as it may */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The Idempotency-Key was used with another request in the last 24 hours */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many failed authentications from this address; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The environment the call works in: every call names it */
                environment: "production" | "staging";
                /** @description The endpoint id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 413 (body too large), 415 (not JSON) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminWebhookEndpoint"];
                };
            };
            /** @description The id is a secret, not an endpoint id (refused without being repeated) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No admin token, or one that is unknown, revoked or expired */
            401: {
                headers: {
                    /** @description RFC 6750 §3: the Bearer challenge */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The admin token lacks the scope this operation needs (WWW-Authenticate names it) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such webhook endpoint in this environment */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many failed authentications from this address; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    removeWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The environment the call works in: every call names it */
                environment: "production" | "staging";
                /** @description The endpoint id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 413 (body too large), 415 (not JSON) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Removed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The id is a secret, not an endpoint id (refused without being repeated) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No admin token, or one that is unknown, revoked or expired */
            401: {
                headers: {
                    /** @description RFC 6750 §3: the Bearer challenge */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The admin token lacks the scope this operation needs (WWW-Authenticate names it) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such webhook endpoint in this environment */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many failed authentications from this address; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    enableWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The environment the call works in: every call names it */
                environment: "production" | "staging";
                /** @description The endpoint id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 413 (body too large), 415 (not JSON) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminWebhookEndpoint"];
                };
            };
            /** @description The id is a secret, not an endpoint id (refused without being repeated) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No admin token, or one that is unknown, revoked or expired */
            401: {
                headers: {
                    /** @description RFC 6750 §3: the Bearer challenge */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The admin token lacks the scope this operation needs (WWW-Authenticate names it) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such webhook endpoint in this environment */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many failed authentications from this address; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the create safe to retry: the same key and body within 24 hours answer the first result again, creating nothing; another body is 422 */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The environment the call works in: every call names it */
                environment: "production" | "staging";
                /** @description The endpoint id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description How long the old secret keeps signing beside the new one (default 86400, a day) */
                    graceSeconds?: number;
                };
            };
        };
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 413 (body too large), 415 (not JSON) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    /** @description true when this is the first answer again, for a retry with the same Idempotency-Key */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RotatedWebhookSecret"];
                };
            };
            /** @description The body or the Idempotency-Key is invalid, or the id is a secret */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No admin token, or one that is unknown, revoked or expired */
            401: {
                headers: {
                    /** @description RFC 6750 §3: the Bearer challenge */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The admin token lacks the scope this operation needs (WWW-Authenticate names it) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such webhook endpoint in this environment */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The Idempotency-Key was used with another request in the last 24 hours */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many failed authentications from this address; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    listAuditEvents: {
        parameters: {
            query?: {
                /** @description e.g. application.revoked */
                action?: string;
                /** @description Where the page starts: from the `next` link of the previous one */
                cursor?: string;
                /** @description Items per page (default 100) */
                limit?: number;
                /** @description oldest first (default) or newest first; the `next` link keeps it */
                order?: "oldest" | "newest";
                /** @description Events at or after this time */
                since?: string;
                /** @description Only events about this id */
                target?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 413 (body too large), 415 (not JSON) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    /** @description RFC 8288: rel="next", the next page, when there is one */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminAuditEventPage"];
                };
            };
            /** @description A filter, the limit or the cursor is invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No admin token, or one that is unknown, revoked or expired */
            401: {
                headers: {
                    /** @description RFC 6750 §3: the Bearer challenge */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The admin token lacks the scope this operation needs (WWW-Authenticate names it) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many failed authentications from this address; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    rotateSigningKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the create safe to retry: the same key and body within 24 hours answer the first result again, creating nothing; another body is 422 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Refuse tokens signed with older keys at once (a leaked key) */
                    retirePrevious?: boolean;
                };
            };
        };
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 413 (body too large), 415 (not JSON) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    /** @description true when this is the first answer again, for a retry with the same Idempotency-Key */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RotatedSigningKey"];
                };
            };
            /** @description The body or the Idempotency-Key is invalid (send {} for the defaults) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No admin token, or one that is unknown, revoked or expired */
            401: {
                headers: {
                    /** @description RFC 6750 §3: the Bearer challenge */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The admin token lacks the scope this operation needs (WWW-Authenticate names it) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The Idempotency-Key was used with another request in the last 24 hours */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many failed authentications from this address; Retry-After says when to try again */
            429: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
}
