// Generated from sdk/openapi.json by `npm run sdk:generate`: do not edit.

export interface paths {
    "/.well-known/oauth-authorization-server": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Authorization server metadata (RFC 8414) */
        get: operations["getAuthorizationServerMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/v1/oauth2/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke an access token (RFC 7009) */
        post: operations["revokeAccessToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/v1/oauth2/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Get an access token (client credentials) */
        post: operations["issueAccessToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contentmanagement/v1/clientResponses/{client}/reviews/{reviewId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the responses to a review, oldest first, a page at a time
         * @deprecated
         */
        get: operations["listReviewResponsesViaContentmanagement"];
        put?: never;
        /**
         * Answer a review (200, as the public system does)
         * @deprecated
         */
        post: operations["createClientResponseViaContentmanagement"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contentmanagement/v1/clientResponses/{responseGuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a response
         * @deprecated
         */
        get: operations["getClientResponseViaContentmanagement"];
        put?: never;
        post?: never;
        /**
         * Delete a response (204 also when there is none)
         * @deprecated
         */
        delete: operations["deleteClientResponseViaContentmanagement"];
        options?: never;
        head?: never;
        /**
         * Change some attributes of a response
         * @deprecated
         */
        patch: operations["updateClientResponseViaContentmanagement"];
        trace?: never;
    };
    "/contentmanagement/v1/clientResponses/{responseGuid}/author": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the author of a response
         * @deprecated
         */
        get: operations["getClientResponseAuthorViaContentmanagement"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contentmanagement/v1/clientResponses/{responseGuid}/relationships/author": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the author relationship of a response
         * @deprecated
         */
        get: operations["getClientResponseAuthorRelationshipViaContentmanagement"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contentmanagement/v1/clientResponses/{responseGuid}/relationships/review": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the review relationship of a response
         * @deprecated
         */
        get: operations["getClientResponseReviewRelationshipViaContentmanagement"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contentmanagement/v1/clientResponses/{responseGuid}/review": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the review a response answers
         * @deprecated
         */
        get: operations["getClientResponseReviewViaContentmanagement"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contentmanagement/v1/clientResponses/reviews/-/responses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Count the responses to each review of a list (at most 1000)
         * @deprecated
         */
        post: operations["countReviewResponsesViaContentmanagement"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/privacy/v1/accessRequests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List access requests of the last PRIVACY_LIST_DAYS, newest first */
        get: operations["listAccessRequests"];
        put?: never;
        /** File an access request (409 while one for the same end user is pending) */
        post: operations["createAccessRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/privacy/v1/accessRequests/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one access request */
        get: operations["getAccessRequest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/privacy/v1/accessRequests/{id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Download the export of a completed access request: one JSON document, or a ZIP archive with `?format=zip` or `Accept: application/zip` (409 while pending, 410 once expired) */
        get: operations["downloadAccessExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/privacy/v1/forgetRequests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List forget requests of the last PRIVACY_LIST_DAYS, newest first */
        get: operations["listForgetRequests"];
        put?: never;
        /** File a forget request (409 while one for the same end user is pending) */
        post: operations["createForgetRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/privacy/v1/forgetRequests/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one forget request */
        get: operations["getForgetRequest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/response/v1/clientResponses/{client}/reviews/{reviewId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the responses to a review, oldest first, a page at a time */
        get: operations["listReviewResponses"];
        put?: never;
        /** Answer a review (200, as the public system does) */
        post: operations["createClientResponse"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/response/v1/clientResponses/{responseGuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a response */
        get: operations["getClientResponse"];
        put?: never;
        post?: never;
        /** Delete a response (204 also when there is none) */
        delete: operations["deleteClientResponse"];
        options?: never;
        head?: never;
        /** Change some attributes of a response */
        patch: operations["updateClientResponse"];
        trace?: never;
    };
    "/response/v1/clientResponses/{responseGuid}/author": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get the author of a response */
        get: operations["getClientResponseAuthor"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/response/v1/clientResponses/{responseGuid}/relationships/author": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get the author relationship of a response */
        get: operations["getClientResponseAuthorRelationship"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/response/v1/clientResponses/{responseGuid}/relationships/review": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get the review relationship of a response */
        get: operations["getClientResponseReviewRelationship"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/response/v1/clientResponses/{responseGuid}/review": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get the review a response answers */
        get: operations["getClientResponseReview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/response/v1/clientResponses/reviews/-/responses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Count the responses to each review of a list (at most 1000) */
        post: operations["countReviewResponses"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "privacy.access_request.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An access request's export is ready
         * @description Sent to each endpoint subscribed to this event, signed as Standard Webhooks describes; retried for more than 24 hours until a 2xx answer. Verify with a Standard Webhooks library.
         */
        post: operations["webhook_privacy_access_request_completed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "privacy.access_request.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An access request was accepted
         * @description Sent to each endpoint subscribed to this event, signed as Standard Webhooks describes; retried for more than 24 hours until a 2xx answer. Verify with a Standard Webhooks library.
         */
        post: operations["webhook_privacy_access_request_created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "privacy.forget_request.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A forget request was carried out
         * @description Sent to each endpoint subscribed to this event, signed as Standard Webhooks describes; retried for more than 24 hours until a 2xx answer. Verify with a Standard Webhooks library.
         */
        post: operations["webhook_privacy_forget_request_completed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "privacy.forget_request.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A forget request was accepted
         * @description Sent to each endpoint subscribed to this event, signed as Standard Webhooks describes; retried for more than 24 hours until a 2xx answer. Verify with a Standard Webhooks library.
         */
        post: operations["webhook_privacy_forget_request_created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        AccessExport: {
            clients: {
                clientName: string;
                reviews: {
                    author: {
                        /** @description Client-controlled user identifier used for content submission */
                        authorId?: string;
                        /** @description The individual's email address (case-insensitive) */
                        emailAddress?: string;
                        /** @description The individual's Facebook username */
                        facebookUsername?: string;
                        /** @description The individual's Instagram username (a leading @ is ignored) */
                        instagramUsername?: string;
                        name?: string;
                        /** @description The individual's phone number; spaces, dots, dashes and brackets are ignored */
                        phoneNumber?: string;
                        /** @description The individual's Twitter username */
                        twitterUsername?: string;
                        /** @description The individual's Vimeo username */
                        vimeoUsername?: string;
                        /** @description The individual's YouTube channel id */
                        youtubeChannelId?: string;
                        /** @description The individual's YouTube username */
                        youtubeUsername?: string;
                    };
                    clientResponses: {
                        /** Format: date-time */
                        created: string;
                        department: string;
                        id: string;
                        response: string;
                        responseBy: string | null;
                        responseSource: string;
                        /** Format: date-time */
                        updated: string;
                    }[];
                    id: string;
                    rating: number | null;
                    /** Format: date-time */
                    submittedAt: string;
                    text: string | null;
                    title: string | null;
                }[];
            }[];
            /** Format: date-time */
            expiresAt: string;
            /** Format: date-time */
            generatedAt: string;
            id: string;
            /** @enum {string} */
            type: "accessExport";
        };
        AuthorDocument: {
            data: {
                id: string;
                /** @enum {string} */
                type: "author";
            };
            links: {
                /** Format: uri */
                related: string;
                /** Format: uri */
                self: string;
            };
        };
        /** @description RFC 8414 authorization server metadata */
        AuthorizationServerMetadata: {
            grant_types_supported: string[];
            /** @description The request's base URL (staging hosts have their own issuer) */
            issuer: string;
            response_types_supported: string[];
            revocation_endpoint: string;
            revocation_endpoint_auth_methods_supported: string[];
            scopes_supported: string[];
            token_endpoint: string;
            token_endpoint_auth_methods_supported: string[];
        };
        ClientResponseCollection: {
            data: {
                attributes: {
                    /** Format: date-time */
                    created: string;
                    department: string;
                    /** @description Client instance that answers */
                    responderClient: string;
                    response: string;
                    responseBy: string | null;
                    /** @description Name of the OAuth application that wrote it */
                    responseSource: string;
                    /** Format: date-time */
                    updated: string;
                };
                /** Format: uuid */
                id: string;
                links: {
                    /** Format: uri */
                    self: string;
                };
                relationships: {
                    author: {
                        data: {
                            id: string;
                            /** @enum {string} */
                            type: "author";
                        };
                        links: {
                            /** Format: uri */
                            related: string;
                            /** Format: uri */
                            self: string;
                        };
                    };
                    review: {
                        data: {
                            id: string;
                            meta: {
                                clientName: string;
                            };
                            /** @enum {string} */
                            type: "review";
                        };
                        links: {
                            /** Format: uri */
                            related: string;
                            /** Format: uri */
                            self: string;
                        };
                    };
                };
                /** @enum {string} */
                type: "clientResponse";
            }[];
            links: {
                /**
                 * Format: uri
                 * @description The next page; absent on the last one
                 */
                next?: string;
                /** Format: uri */
                self: string;
            };
        };
        ClientResponseDocument: {
            data: {
                attributes: {
                    /** Format: date-time */
                    created: string;
                    department: string;
                    /** @description Client instance that answers */
                    responderClient: string;
                    response: string;
                    responseBy: string | null;
                    /** @description Name of the OAuth application that wrote it */
                    responseSource: string;
                    /** Format: date-time */
                    updated: string;
                };
                /** Format: uuid */
                id: string;
                links: {
                    /** Format: uri */
                    self: string;
                };
                relationships: {
                    author: {
                        data: {
                            id: string;
                            /** @enum {string} */
                            type: "author";
                        };
                        links: {
                            /** Format: uri */
                            related: string;
                            /** Format: uri */
                            self: string;
                        };
                    };
                    review: {
                        data: {
                            id: string;
                            meta: {
                                clientName: string;
                            };
                            /** @enum {string} */
                            type: "review";
                        };
                        links: {
                            /** Format: uri */
                            related: string;
                            /** Format: uri */
                            self: string;
                        };
                    };
                };
                /** @enum {string} */
                type: "clientResponse";
            };
            links: {
                /** Format: uri */
                self: string;
            };
        };
        JsonApiErrorDocument: {
            errors: {
                code: string;
                detail: string;
                field?: string;
                message: string;
                source?: {
                    header?: string;
                    parameter?: string;
                    pointer?: string;
                };
                status: string;
                title: string;
            }[];
            httpCode: number;
            message: string;
            requestURI: string;
        };
        /** @description RFC 6749 §5.2 error */
        OAuthError: {
            /**
             * @description invalid_request, invalid_client, unauthorized_client, unsupported_grant_type, invalid_scope, slow_down (rate limit, quota or too many failed logins; see Retry-After), server_error
             * @example invalid_client
             */
            error: string;
            /** @example client authentication failed */
            error_description: string;
        };
        PrivacyRequest: {
            clientNames: string[];
            completedAt: string | null;
            /**
             * Format: date-time
             * @description One calendar month after submission (GDPR Art. 12(3))
             */
            dueAt: string;
            exportExpiresAt?: string | null;
            id: string;
            identifiers: {
                type: string;
                /** @description Masked value; null once the subject has been erased */
                value: string | null;
            }[];
            links: {
                export?: string;
                self: string;
            };
            receipt: {
                clients: {
                    /** @description Sections of earlier access exports removed because they held the person */
                    accessExports: number;
                    clientName: string;
                    clientResponses: number;
                    profileFields: number;
                    reviews: number;
                }[];
                /** Format: date-time */
                completedAt: string;
                startedAt: string | null;
            } | null;
            status: "PENDING" | "COMPLETED";
            /** Format: date-time */
            submittedAt: string;
            type: "forgetRequest" | "accessRequest";
        };
        PrivacyRequestEvent: {
            data: {
                clientNames: string[];
                /** @description The privacy request */
                id: string;
                links: {
                    /** @description Access requests, once completed: the download */
                    export?: string;
                    /** @description The request, on the host it was filed on */
                    self: string;
                };
                status: "PENDING" | "COMPLETED";
            };
            /**
             * Format: date-time
             * @description When the change happened
             */
            timestamp: string;
            type: "privacy.forget_request.created" | "privacy.forget_request.completed" | "privacy.access_request.created" | "privacy.access_request.completed";
        };
        PrivacyRequestList: {
            links: {
                next?: string;
                self: string;
            };
            nextCursor: string | null;
            requests: components["schemas"]["PrivacyRequest"][];
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
        ResponseCounts: {
            counts: {
                responseCount: number;
                reviewId: string;
            }[];
        };
        ReviewDocument: {
            data: {
                attributes: {
                    clientName: string;
                    rating: number | null;
                    /** Format: date-time */
                    submittedAt: string;
                    text: string | null;
                    title: string | null;
                };
                id: string;
                /** @enum {string} */
                type: "review";
            };
            links: {
                /** Format: uri */
                related: string;
                /** Format: uri */
                self: string;
            };
        };
        ReviewRelationshipDocument: {
            data: {
                id: string;
                meta: {
                    clientName: string;
                };
                /** @enum {string} */
                type: "review";
            };
            links: {
                /** Format: uri */
                related: string;
                /** Format: uri */
                self: string;
            };
        };
        /** @description Access token (sent with Cache-Control: no-store) */
        TokenResponse: {
            /** @description Opaque bearer token (`rpa_at_` + base64url): treat it as a string */
            access_token: string;
            /** @description Expiry time, epoch milliseconds */
            expires_at: number;
            /** @description Lifetime in seconds (RFC 6749 §5.1) */
            expires_in: number;
            /**
             * @description The literal text "null": no refresh token exists
             * @enum {string}
             */
            refresh_token: "null";
            /** @enum {string} */
            scope: "offline_access";
            /** @enum {string} */
            token_type: "Bearer";
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description RFC 6749 §5.2: the client authenticates with HTTP Basic (or in the body) */
        BasicChallenge: string;
        /** @description RFC 6750 §3: the Bearer challenge */
        BearerChallenge: string;
        /** @description RFC 6749 §5.1: no-store */
        "Cache-Control": string;
        /** @description RFC 9745: when this prefix was deprecated, as a structured-field date */
        Deprecation: string;
        /** @description true when this is the first answer again, for a retry with the same Idempotency-Key */
        "Idempotent-Replayed": string;
        /** @description RFC 8288: the same resource under the /response prefix (rel="successor-version") */
        Link: string;
        /** @description URL of the new request (RFC 9110 §10.2.2) */
        Location: string;
        /** @description Per policy (minute, day): requests still available (r) and seconds until the window ends (t) */
        RateLimit: string;
        /** @description The passkey's policies: quota (q) per window of w seconds */
        "RateLimit-Policy": string;
        /** @description RFC 9110 §10.2.3: seconds to wait before trying again */
        "Retry-After": number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getAuthorizationServerMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 400 (Host missing, malformed or sent twice), 408 (request too slow), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
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
            /** @description RFC 8414 authorization server metadata */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthorizationServerMetadata"];
                };
            };
        };
    };
    revokeAccessToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    /** @description client_secret_post: the client id (omit with HTTP Basic, or repeat the same id) */
                    client_id?: string;
                    /** @description client_secret_post: the client secret (never together with HTTP Basic) */
                    client_secret?: string;
                    /** @description The access token to revoke */
                    token: string;
                    /** @description Ignored: access tokens are the only kind (RFC 7009 §2.1) */
                    token_type_hint?: string;
                };
            };
        };
        responses: {
            /** @description invalid_request: 405 (method not allowed), 408 (the request did not arrive within REQUEST_TIMEOUT_MS), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description Revoked, or the token was unknown or not this client’s (RFC 7009 §2.2) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description invalid_request (missing or repeated parameter, a Content-Type other than form-encoded UTF-8, both authentication methods, a passkey not of the application), unsupported_grant_type, invalid_scope, unauthorized_client (revoked application) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description invalid_client (unknown client or wrong secret) */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["BasicChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description invalid_request: the body is larger than BODY_LIMIT_BYTES */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description slow_down: too many failed authentications of this client id or address */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description temporarily_unavailable: the database or the rate-limit store cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
        };
    };
    issueAccessToken: {
        parameters: {
            query?: {
                /** @description Passkey (of either API) of the same application charged for this call; default: the application's default passkey. Unknown or someone else's: 400 invalid_request */
                passkey?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Each parameter at most once; parameters without a value count as omitted */
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    /** @description client_secret_post: the client id (omit with HTTP Basic, or repeat the same id) */
                    client_id?: string;
                    /** @description client_secret_post: the client secret (never together with HTTP Basic) */
                    client_secret?: string;
                    /**
                     * @description Must be `client_credentials`
                     * @example client_credentials
                     */
                    grant_type: string;
                    /**
                     * @description Omit, or `offline_access`
                     * @example offline_access
                     */
                    scope?: string;
                };
            };
        };
        responses: {
            /** @description invalid_request: 405 (method not allowed), 408 (the request did not arrive within REQUEST_TIMEOUT_MS), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description The access token (RFC 6749 §5.1) */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenResponse"];
                };
            };
            /** @description invalid_request (missing or repeated parameter, a Content-Type other than form-encoded UTF-8, both authentication methods, a passkey not of the application), unsupported_grant_type, invalid_scope, unauthorized_client (revoked application) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description invalid_client (unknown client or wrong secret) */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["BasicChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description invalid_request: the body is larger than BODY_LIMIT_BYTES */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description slow_down: the passkey is over its rate limit or quota, or too many failed authentications of this client id or address */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description temporarily_unavailable: the database or the rate-limit store cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
        };
    };
    listReviewResponsesViaContentmanagement: {
        parameters: {
            query: {
                /** @description Where the page starts: from `links.next` of the previous page */
                "page[after]"?: string;
                /** @description Responses per page (default 100) */
                "page[size]"?: number;
                /** @description Response API passkey of the application; each call counts against its rate limit and daily quota */
                passkey: string;
            };
            header?: never;
            path: {
                /**
                 * @description Client instance name
                 * @example Acme-EN_GB
                 */
                client: string;
                /**
                 * @description Id of the review
                 * @example demo-acme-en_gb-1
                 */
                reviewId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
            "4XX": {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["ClientResponseCollection"];
                };
            };
            /** @description The passkey query parameter is missing or malformed; or the client name or review id is malformed; or page[size] or page[after] is invalid */
            400: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description No bearer token, or one that is malformed, expired or revoked */
            401: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Developer Inactive: the passkey is unknown, inactive, or not a Response API passkey of this application; or the application is not granted this client instance */
            403: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The passkey is over its rate limit (per minute) or its daily quota */
            429: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The database or the rate-limit store cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
        };
    };
    createClientResponseViaContentmanagement: {
        parameters: {
            query: {
                /** @description Response API passkey of the application; each call counts against its rate limit and daily quota */
                passkey: string;
            };
            header?: {
                /** @description Makes the create safe to retry: the same key and body within 24 hours answer the first result again, creating nothing; another body is 422 */
                "idempotency-key"?: string;
            };
            path: {
                /**
                 * @description Client instance name
                 * @example Acme-EN_GB
                 */
                client: string;
                /**
                 * @description Id of the review
                 * @example demo-acme-en_gb-1
                 */
                reviewId: string;
            };
            cookie?: never;
        };
        /** @description A JSON:API document whose primary data is a clientResponse resource object, or the public system's flat form with `attributes` at the top; exactly one of `data` and `attributes`. */
        requestBody: {
            content: {
                /** @example {
                 *       "data": {
                 *         "type": "clientResponse",
                 *         "attributes": {
                 *           "department": "Customer care",
                 *           "response": "Thank you for your review!",
                 *           "responseBy": "Sam"
                 *         }
                 *       }
                 *     } */
                "application/json": {
                    attributes?: {
                        department: string;
                        response: string;
                        /** @description Name of the person answering; defaults to the application name as author */
                        responseBy?: string | null;
                    };
                    data?: {
                        attributes: {
                            department: string;
                            response: string;
                            /** @description Name of the person answering; defaults to the application name as author */
                            responseBy?: string | null;
                        };
                        /**
                         * @description Any other type is answered 409 Conflict (JSON:API 1.1 §7.1.2, §7.2.3)
                         * @enum {string}
                         */
                        type: "clientResponse";
                    };
                };
                /** @example {
                 *       "data": {
                 *         "type": "clientResponse",
                 *         "attributes": {
                 *           "department": "Customer care",
                 *           "response": "Thank you for your review!",
                 *           "responseBy": "Sam"
                 *         }
                 *       }
                 *     } */
                "application/vnd.api+json": {
                    attributes?: {
                        department: string;
                        response: string;
                        /** @description Name of the person answering; defaults to the application name as author */
                        responseBy?: string | null;
                    };
                    data?: {
                        attributes: {
                            department: string;
                            response: string;
                            /** @description Name of the person answering; defaults to the application name as author */
                            responseBy?: string | null;
                        };
                        /**
                         * @description Any other type is answered 409 Conflict (JSON:API 1.1 §7.1.2, §7.2.3)
                         * @enum {string}
                         */
                        type: "clientResponse";
                    };
                };
            };
        };
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
            "4XX": {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["ClientResponseDocument"];
                };
            };
            /** @description The passkey query parameter is missing or malformed; or the client name or review id is malformed; or the body is invalid (field and message say which member), the review is unknown, this application already answered it (Duplicate response), or the Idempotency-Key is malformed */
            400: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description No bearer token, or one that is malformed, expired or revoked */
            401: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Developer Inactive: the passkey is unknown, inactive, or not a Response API passkey of this application; or the application is not granted this client instance; or data.id was sent: the server assigns ids */
            403: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description data.type is not clientResponse */
            409: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The body is larger than BODY_LIMIT_BYTES */
            413: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The Content-Type is neither application/vnd.api+json nor application/json */
            415: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The Idempotency-Key was used with another request in the last 24 hours */
            422: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The passkey is over its rate limit (per minute) or its daily quota */
            429: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The database or the rate-limit store cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
        };
    };
    getClientResponseViaContentmanagement: {
        parameters: {
            query: {
                /** @description Response API passkey of the application; each call counts against its rate limit and daily quota */
                passkey: string;
            };
            header?: never;
            path: {
                /**
                 * @description GUID of the client response
                 * @example 0b6f3c2e-4d1a-4f7e-9a43-5c2d8e1f7a90
                 */
                responseGuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
            "4XX": {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["ClientResponseDocument"];
                };
            };
            /** @description The passkey query parameter is missing or malformed; or the GUID is malformed */
            400: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description No bearer token, or one that is malformed, expired or revoked */
            401: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Developer Inactive: the passkey is unknown, inactive, or not a Response API passkey of this application */
            403: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Client Response Id does not exist (a response of a client the application is not granted is not shown either) */
            404: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The passkey is over its rate limit (per minute) or its daily quota */
            429: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The database or the rate-limit store cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
        };
    };
    deleteClientResponseViaContentmanagement: {
        parameters: {
            query: {
                /** @description Response API passkey of the application; each call counts against its rate limit and daily quota */
                passkey: string;
            };
            header?: never;
            path: {
                /**
                 * @description GUID of the client response
                 * @example 0b6f3c2e-4d1a-4f7e-9a43-5c2d8e1f7a90
                 */
                responseGuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
            "4XX": {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Deleted, or there was nothing to delete */
            204: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The passkey query parameter is missing or malformed; or the GUID is malformed */
            400: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description No bearer token, or one that is malformed, expired or revoked */
            401: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Developer Inactive: the passkey is unknown, inactive, or not a Response API passkey of this application */
            403: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The passkey is over its rate limit (per minute) or its daily quota */
            429: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The database or the rate-limit store cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
        };
    };
    updateClientResponseViaContentmanagement: {
        parameters: {
            query: {
                /** @description Response API passkey of the application; each call counts against its rate limit and daily quota */
                passkey: string;
            };
            header?: never;
            path: {
                /**
                 * @description GUID of the client response
                 * @example 0b6f3c2e-4d1a-4f7e-9a43-5c2d8e1f7a90
                 */
                responseGuid: string;
            };
            cookie?: never;
        };
        /** @description A JSON:API document whose primary data is a clientResponse resource object, or the public system's flat form with `attributes` at the top; exactly one of `data` and `attributes`. */
        requestBody: {
            content: {
                /** @example {
                 *       "data": {
                 *         "type": "clientResponse",
                 *         "attributes": {
                 *           "response": "Thank you, we have fixed it."
                 *         }
                 *       }
                 *     } */
                "application/json": {
                    attributes?: {
                        department?: string;
                        response?: string;
                        /** @description Name of the person answering; defaults to the application name as author */
                        responseBy?: string | null;
                    };
                    data?: {
                        attributes: {
                            department?: string;
                            response?: string;
                            /** @description Name of the person answering; defaults to the application name as author */
                            responseBy?: string | null;
                        };
                        /** @description The GUID in the URL; another one is 409 Conflict */
                        id?: string;
                        /**
                         * @description Any other type is answered 409 Conflict (JSON:API 1.1 §7.1.2, §7.2.3)
                         * @enum {string}
                         */
                        type: "clientResponse";
                    };
                };
                /** @example {
                 *       "data": {
                 *         "type": "clientResponse",
                 *         "attributes": {
                 *           "response": "Thank you, we have fixed it."
                 *         }
                 *       }
                 *     } */
                "application/vnd.api+json": {
                    attributes?: {
                        department?: string;
                        response?: string;
                        /** @description Name of the person answering; defaults to the application name as author */
                        responseBy?: string | null;
                    };
                    data?: {
                        attributes: {
                            department?: string;
                            response?: string;
                            /** @description Name of the person answering; defaults to the application name as author */
                            responseBy?: string | null;
                        };
                        /** @description The GUID in the URL; another one is 409 Conflict */
                        id?: string;
                        /**
                         * @description Any other type is answered 409 Conflict (JSON:API 1.1 §7.1.2, §7.2.3)
                         * @enum {string}
                         */
                        type: "clientResponse";
                    };
                };
            };
        };
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
            "4XX": {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["ClientResponseDocument"];
                };
            };
            /** @description The passkey query parameter is missing or malformed; or the GUID is malformed; or the body is invalid (field and message say which member) */
            400: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description No bearer token, or one that is malformed, expired or revoked */
            401: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Developer Inactive: the passkey is unknown, inactive, or not a Response API passkey of this application */
            403: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Client Response Id does not exist (a response of a client the application is not granted is not shown either) */
            404: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description data.type is not clientResponse, or data.id is not the GUID in the URL */
            409: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The body is larger than BODY_LIMIT_BYTES */
            413: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The Content-Type is neither application/vnd.api+json nor application/json */
            415: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The passkey is over its rate limit (per minute) or its daily quota */
            429: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The database or the rate-limit store cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
        };
    };
    getClientResponseAuthorViaContentmanagement: {
        parameters: {
            query: {
                /** @description Response API passkey of the application; each call counts against its rate limit and daily quota */
                passkey: string;
            };
            header?: never;
            path: {
                /**
                 * @description GUID of the client response
                 * @example 0b6f3c2e-4d1a-4f7e-9a43-5c2d8e1f7a90
                 */
                responseGuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
            "4XX": {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["AuthorDocument"];
                };
            };
            /** @description The passkey query parameter is missing or malformed; or the GUID is malformed */
            400: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description No bearer token, or one that is malformed, expired or revoked */
            401: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Developer Inactive: the passkey is unknown, inactive, or not a Response API passkey of this application */
            403: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Client Response Id does not exist (a response of a client the application is not granted is not shown either) */
            404: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The passkey is over its rate limit (per minute) or its daily quota */
            429: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The database or the rate-limit store cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
        };
    };
    getClientResponseAuthorRelationshipViaContentmanagement: {
        parameters: {
            query: {
                /** @description Response API passkey of the application; each call counts against its rate limit and daily quota */
                passkey: string;
            };
            header?: never;
            path: {
                /**
                 * @description GUID of the client response
                 * @example 0b6f3c2e-4d1a-4f7e-9a43-5c2d8e1f7a90
                 */
                responseGuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
            "4XX": {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["AuthorDocument"];
                };
            };
            /** @description The passkey query parameter is missing or malformed; or the GUID is malformed */
            400: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description No bearer token, or one that is malformed, expired or revoked */
            401: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Developer Inactive: the passkey is unknown, inactive, or not a Response API passkey of this application */
            403: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Client Response Id does not exist (a response of a client the application is not granted is not shown either) */
            404: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The passkey is over its rate limit (per minute) or its daily quota */
            429: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The database or the rate-limit store cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
        };
    };
    getClientResponseReviewRelationshipViaContentmanagement: {
        parameters: {
            query: {
                /** @description Response API passkey of the application; each call counts against its rate limit and daily quota */
                passkey: string;
            };
            header?: never;
            path: {
                /**
                 * @description GUID of the client response
                 * @example 0b6f3c2e-4d1a-4f7e-9a43-5c2d8e1f7a90
                 */
                responseGuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
            "4XX": {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["ReviewRelationshipDocument"];
                };
            };
            /** @description The passkey query parameter is missing or malformed; or the GUID is malformed */
            400: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description No bearer token, or one that is malformed, expired or revoked */
            401: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Developer Inactive: the passkey is unknown, inactive, or not a Response API passkey of this application */
            403: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Client Response Id does not exist (a response of a client the application is not granted is not shown either) */
            404: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The passkey is over its rate limit (per minute) or its daily quota */
            429: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The database or the rate-limit store cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
        };
    };
    getClientResponseReviewViaContentmanagement: {
        parameters: {
            query: {
                /** @description Response API passkey of the application; each call counts against its rate limit and daily quota */
                passkey: string;
            };
            header?: never;
            path: {
                /**
                 * @description GUID of the client response
                 * @example 0b6f3c2e-4d1a-4f7e-9a43-5c2d8e1f7a90
                 */
                responseGuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
            "4XX": {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["ReviewDocument"];
                };
            };
            /** @description The passkey query parameter is missing or malformed; or the GUID is malformed */
            400: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description No bearer token, or one that is malformed, expired or revoked */
            401: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Developer Inactive: the passkey is unknown, inactive, or not a Response API passkey of this application */
            403: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Client Response Id does not exist (a response of a client the application is not granted is not shown either) */
            404: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The passkey is over its rate limit (per minute) or its daily quota */
            429: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The database or the rate-limit store cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
        };
    };
    countReviewResponsesViaContentmanagement: {
        parameters: {
            query: {
                /** @description Response API passkey of the application; each call counts against its rate limit and daily quota */
                passkey: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /** @example {
                 *       "reviewIds": [
                 *         "demo-acme-en_gb-1",
                 *         "demo-acme-en_gb-2"
                 *       ]
                 *     } */
                "application/json": {
                    reviewIds: string[];
                };
                /** @example {
                 *       "reviewIds": [
                 *         "demo-acme-en_gb-1",
                 *         "demo-acme-en_gb-2"
                 *       ]
                 *     } */
                "application/vnd.api+json": {
                    reviewIds: string[];
                };
            };
        };
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
            "4XX": {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResponseCounts"];
                };
            };
            /** @description The passkey query parameter is missing or malformed; or reviewIds is missing, holds a malformed id, or more than 1000 of them */
            400: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description No bearer token, or one that is malformed, expired or revoked */
            401: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Developer Inactive: the passkey is unknown, inactive, or not a Response API passkey of this application */
            403: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The body is larger than BODY_LIMIT_BYTES */
            413: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The Content-Type is neither application/vnd.api+json nor application/json */
            415: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The passkey is over its rate limit (per minute) or its daily quota */
            429: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The database or the rate-limit store cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
        };
    };
    listAccessRequests: {
        parameters: {
            query: {
                /** @description Client-controlled user identifier used for content submission */
                authorId?: string;
                /** @description Client instance name */
                clientName?: string;
                completedAfter?: string;
                /** @description nextCursor of a previous page */
                cursor?: string;
                /** @description The individual's email address (case-insensitive) */
                emailAddress?: string;
                /** @description The individual's Facebook username */
                facebookUsername?: string;
                /** @description Id of one request */
                id?: string;
                /** @description The individual's Instagram username (a leading @ is ignored) */
                instagramUsername?: string;
                /** @description Page size; 100 when absent */
                limit?: number;
                /** @description Privacy API passkey of the application; each call counts against its rate limit and daily quota */
                passkey: string;
                /** @description The individual's phone number; spaces, dots, dashes and brackets are ignored */
                phoneNumber?: string;
                status?: "PENDING" | "COMPLETED";
                submittedAfter?: string;
                /** @description The individual's Twitter username */
                twitterUsername?: string;
                /** @description The individual's Vimeo username */
                vimeoUsername?: string;
                /** @description The individual's YouTube channel id */
                youtubeChannelId?: string;
                /** @description The individual's YouTube username */
                youtubeUsername?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
            "4XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrivacyRequestList"];
                };
            };
            /** @description The passkey query parameter is missing or malformed; or a filter, the limit or the cursor is invalid */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No bearer token, or one that is malformed, expired or revoked */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Developer Inactive: the passkey is unknown, inactive, or not a Privacy API passkey of this application */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The passkey is over its rate limit (per minute) or its daily quota */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database or the rate-limit store cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    createAccessRequest: {
        parameters: {
            query: {
                /** @description Privacy API passkey of the application; each call counts against its rate limit and daily quota */
                passkey: string;
            };
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
                    /** @description Client-controlled user identifier used for content submission */
                    authorId?: string;
                    /** @description Client names the request is scoped to; defaults to every client the application may use */
                    clientNames?: string[];
                    /** @description The individual's email address (case-insensitive) */
                    emailAddress?: string;
                    /** @description The individual's Facebook username */
                    facebookUsername?: string;
                    /** @description The individual's Instagram username (a leading @ is ignored) */
                    instagramUsername?: string;
                    /** @description The individual's phone number; spaces, dots, dashes and brackets are ignored */
                    phoneNumber?: string;
                    /** @description The individual's Twitter username */
                    twitterUsername?: string;
                    /** @description The individual's Vimeo username */
                    vimeoUsername?: string;
                    /** @description The individual's YouTube channel id */
                    youtubeChannelId?: string;
                    /** @description The individual's YouTube username */
                    youtubeUsername?: string;
                };
            };
        };
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
            "4XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Accepted: PENDING until the worker completes it */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Location: components["headers"]["Location"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrivacyRequest"];
                };
            };
            /** @description The passkey query parameter is missing or malformed; or the body names no identifier, an invalid one, an unknown member, or a client name the application may not use; or the Idempotency-Key is malformed */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No bearer token, or one that is malformed, expired or revoked */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Developer Inactive: the passkey is unknown, inactive, or not a Privacy API passkey of this application */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description A request for the same end user (any of its identifiers) is already pending */
            409: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The body is larger than BODY_LIMIT_BYTES */
            413: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The Content-Type is not application/json */
            415: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The Idempotency-Key was used with another request in the last 24 hours */
            422: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The passkey is over its rate limit (per minute) or its daily quota */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database or the rate-limit store cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    getAccessRequest: {
        parameters: {
            query: {
                /** @description Privacy API passkey of the application; each call counts against its rate limit and daily quota */
                passkey: string;
            };
            header?: never;
            path: {
                /**
                 * @description Id of the request, as answered when it was filed
                 * @example 5e0f7a52-8c1d-4b3a-a2f9-0d6c4e8b1f23
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
            "4XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrivacyRequest"];
                };
            };
            /** @description The passkey query parameter is missing or malformed */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No bearer token, or one that is malformed, expired or revoked */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Developer Inactive: the passkey is unknown, inactive, or not a Privacy API passkey of this application */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such request of this application */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The passkey is over its rate limit (per minute) or its daily quota */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database or the rate-limit store cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    downloadAccessExport: {
        parameters: {
            query: {
                /** @description json (the default) or zip; without it, `Accept: application/zip` asks for the archive */
                format?: "json" | "zip";
                /** @description Privacy API passkey of the application; each call counts against its rate limit and daily quota */
                passkey: string;
            };
            header?: never;
            path: {
                /**
                 * @description Id of the request, as answered when it was filed
                 * @example 5e0f7a52-8c1d-4b3a-a2f9-0d6c4e8b1f23
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
            "4XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccessExport"];
                    "application/zip": string;
                };
            };
            /** @description The passkey query parameter is missing or malformed */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No bearer token, or one that is malformed, expired or revoked */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Developer Inactive: the passkey is unknown, inactive, or not a Privacy API passkey of this application */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such request of this application */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The request is still PENDING; Retry-After says when to look again */
            409: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The export has expired (kept for PRIVACY_EXPORT_RETENTION_DAYS) and was deleted */
            410: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The passkey is over its rate limit (per minute) or its daily quota */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database or the rate-limit store cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    listForgetRequests: {
        parameters: {
            query: {
                /** @description Client-controlled user identifier used for content submission */
                authorId?: string;
                /** @description Client instance name */
                clientName?: string;
                completedAfter?: string;
                /** @description nextCursor of a previous page */
                cursor?: string;
                /** @description The individual's email address (case-insensitive) */
                emailAddress?: string;
                /** @description The individual's Facebook username */
                facebookUsername?: string;
                /** @description Id of one request */
                id?: string;
                /** @description The individual's Instagram username (a leading @ is ignored) */
                instagramUsername?: string;
                /** @description Page size; 100 when absent */
                limit?: number;
                /** @description Privacy API passkey of the application; each call counts against its rate limit and daily quota */
                passkey: string;
                /** @description The individual's phone number; spaces, dots, dashes and brackets are ignored */
                phoneNumber?: string;
                status?: "PENDING" | "COMPLETED";
                submittedAfter?: string;
                /** @description The individual's Twitter username */
                twitterUsername?: string;
                /** @description The individual's Vimeo username */
                vimeoUsername?: string;
                /** @description The individual's YouTube channel id */
                youtubeChannelId?: string;
                /** @description The individual's YouTube username */
                youtubeUsername?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
            "4XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrivacyRequestList"];
                };
            };
            /** @description The passkey query parameter is missing or malformed; or a filter, the limit or the cursor is invalid */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No bearer token, or one that is malformed, expired or revoked */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Developer Inactive: the passkey is unknown, inactive, or not a Privacy API passkey of this application */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The passkey is over its rate limit (per minute) or its daily quota */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database or the rate-limit store cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    createForgetRequest: {
        parameters: {
            query: {
                /** @description Privacy API passkey of the application; each call counts against its rate limit and daily quota */
                passkey: string;
            };
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
                    /** @description Client-controlled user identifier used for content submission */
                    authorId?: string;
                    /** @description Client names the request is scoped to; defaults to every client the application may use */
                    clientNames?: string[];
                    /** @description The individual's email address (case-insensitive) */
                    emailAddress?: string;
                    /** @description The individual's Facebook username */
                    facebookUsername?: string;
                    /** @description The individual's Instagram username (a leading @ is ignored) */
                    instagramUsername?: string;
                    /** @description The individual's phone number; spaces, dots, dashes and brackets are ignored */
                    phoneNumber?: string;
                    /** @description The individual's Twitter username */
                    twitterUsername?: string;
                    /** @description The individual's Vimeo username */
                    vimeoUsername?: string;
                    /** @description The individual's YouTube channel id */
                    youtubeChannelId?: string;
                    /** @description The individual's YouTube username */
                    youtubeUsername?: string;
                };
            };
        };
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
            "4XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Accepted: PENDING until the worker completes it */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Location: components["headers"]["Location"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrivacyRequest"];
                };
            };
            /** @description The passkey query parameter is missing or malformed; or the body names no identifier, an invalid one, an unknown member, or a client name the application may not use; or the Idempotency-Key is malformed */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No bearer token, or one that is malformed, expired or revoked */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Developer Inactive: the passkey is unknown, inactive, or not a Privacy API passkey of this application */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description A request for the same end user (any of its identifiers) is already pending */
            409: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The body is larger than BODY_LIMIT_BYTES */
            413: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The Content-Type is not application/json */
            415: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The Idempotency-Key was used with another request in the last 24 hours */
            422: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The passkey is over its rate limit (per minute) or its daily quota */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database or the rate-limit store cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    getForgetRequest: {
        parameters: {
            query: {
                /** @description Privacy API passkey of the application; each call counts against its rate limit and daily quota */
                passkey: string;
            };
            header?: never;
            path: {
                /**
                 * @description Id of the request, as answered when it was filed
                 * @example 5e0f7a52-8c1d-4b3a-a2f9-0d6c4e8b1f23
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
            "4XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrivacyRequest"];
                };
            };
            /** @description The passkey query parameter is missing or malformed */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No bearer token, or one that is malformed, expired or revoked */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Developer Inactive: the passkey is unknown, inactive, or not a Privacy API passkey of this application */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such request of this application */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The passkey is over its rate limit (per minute) or its daily quota */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The database or the rate-limit store cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    listReviewResponses: {
        parameters: {
            query: {
                /** @description Where the page starts: from `links.next` of the previous page */
                "page[after]"?: string;
                /** @description Responses per page (default 100) */
                "page[size]"?: number;
                /** @description Response API passkey of the application; each call counts against its rate limit and daily quota */
                passkey: string;
            };
            header?: never;
            path: {
                /**
                 * @description Client instance name
                 * @example Acme-EN_GB
                 */
                client: string;
                /**
                 * @description Id of the review
                 * @example demo-acme-en_gb-1
                 */
                reviewId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
            "4XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["ClientResponseCollection"];
                };
            };
            /** @description The passkey query parameter is missing or malformed; or the client name or review id is malformed; or page[size] or page[after] is invalid */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description No bearer token, or one that is malformed, expired or revoked */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Developer Inactive: the passkey is unknown, inactive, or not a Response API passkey of this application; or the application is not granted this client instance */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The passkey is over its rate limit (per minute) or its daily quota */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The database or the rate-limit store cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
        };
    };
    createClientResponse: {
        parameters: {
            query: {
                /** @description Response API passkey of the application; each call counts against its rate limit and daily quota */
                passkey: string;
            };
            header?: {
                /** @description Makes the create safe to retry: the same key and body within 24 hours answer the first result again, creating nothing; another body is 422 */
                "idempotency-key"?: string;
            };
            path: {
                /**
                 * @description Client instance name
                 * @example Acme-EN_GB
                 */
                client: string;
                /**
                 * @description Id of the review
                 * @example demo-acme-en_gb-1
                 */
                reviewId: string;
            };
            cookie?: never;
        };
        /** @description A JSON:API document whose primary data is a clientResponse resource object, or the public system's flat form with `attributes` at the top; exactly one of `data` and `attributes`. */
        requestBody: {
            content: {
                /** @example {
                 *       "data": {
                 *         "type": "clientResponse",
                 *         "attributes": {
                 *           "department": "Customer care",
                 *           "response": "Thank you for your review!",
                 *           "responseBy": "Sam"
                 *         }
                 *       }
                 *     } */
                "application/json": {
                    attributes?: {
                        department: string;
                        response: string;
                        /** @description Name of the person answering; defaults to the application name as author */
                        responseBy?: string | null;
                    };
                    data?: {
                        attributes: {
                            department: string;
                            response: string;
                            /** @description Name of the person answering; defaults to the application name as author */
                            responseBy?: string | null;
                        };
                        /**
                         * @description Any other type is answered 409 Conflict (JSON:API 1.1 §7.1.2, §7.2.3)
                         * @enum {string}
                         */
                        type: "clientResponse";
                    };
                };
                /** @example {
                 *       "data": {
                 *         "type": "clientResponse",
                 *         "attributes": {
                 *           "department": "Customer care",
                 *           "response": "Thank you for your review!",
                 *           "responseBy": "Sam"
                 *         }
                 *       }
                 *     } */
                "application/vnd.api+json": {
                    attributes?: {
                        department: string;
                        response: string;
                        /** @description Name of the person answering; defaults to the application name as author */
                        responseBy?: string | null;
                    };
                    data?: {
                        attributes: {
                            department: string;
                            response: string;
                            /** @description Name of the person answering; defaults to the application name as author */
                            responseBy?: string | null;
                        };
                        /**
                         * @description Any other type is answered 409 Conflict (JSON:API 1.1 §7.1.2, §7.2.3)
                         * @enum {string}
                         */
                        type: "clientResponse";
                    };
                };
            };
        };
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
            "4XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["ClientResponseDocument"];
                };
            };
            /** @description The passkey query parameter is missing or malformed; or the client name or review id is malformed; or the body is invalid (field and message say which member), the review is unknown, this application already answered it (Duplicate response), or the Idempotency-Key is malformed */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description No bearer token, or one that is malformed, expired or revoked */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Developer Inactive: the passkey is unknown, inactive, or not a Response API passkey of this application; or the application is not granted this client instance; or data.id was sent: the server assigns ids */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description data.type is not clientResponse */
            409: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The body is larger than BODY_LIMIT_BYTES */
            413: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The Content-Type is neither application/vnd.api+json nor application/json */
            415: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The Idempotency-Key was used with another request in the last 24 hours */
            422: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The passkey is over its rate limit (per minute) or its daily quota */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The database or the rate-limit store cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
        };
    };
    getClientResponse: {
        parameters: {
            query: {
                /** @description Response API passkey of the application; each call counts against its rate limit and daily quota */
                passkey: string;
            };
            header?: never;
            path: {
                /**
                 * @description GUID of the client response
                 * @example 0b6f3c2e-4d1a-4f7e-9a43-5c2d8e1f7a90
                 */
                responseGuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
            "4XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["ClientResponseDocument"];
                };
            };
            /** @description The passkey query parameter is missing or malformed; or the GUID is malformed */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description No bearer token, or one that is malformed, expired or revoked */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Developer Inactive: the passkey is unknown, inactive, or not a Response API passkey of this application */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Client Response Id does not exist (a response of a client the application is not granted is not shown either) */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The passkey is over its rate limit (per minute) or its daily quota */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The database or the rate-limit store cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
        };
    };
    deleteClientResponse: {
        parameters: {
            query: {
                /** @description Response API passkey of the application; each call counts against its rate limit and daily quota */
                passkey: string;
            };
            header?: never;
            path: {
                /**
                 * @description GUID of the client response
                 * @example 0b6f3c2e-4d1a-4f7e-9a43-5c2d8e1f7a90
                 */
                responseGuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
            "4XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Deleted, or there was nothing to delete */
            204: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The passkey query parameter is missing or malformed; or the GUID is malformed */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description No bearer token, or one that is malformed, expired or revoked */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Developer Inactive: the passkey is unknown, inactive, or not a Response API passkey of this application */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The passkey is over its rate limit (per minute) or its daily quota */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The database or the rate-limit store cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
        };
    };
    updateClientResponse: {
        parameters: {
            query: {
                /** @description Response API passkey of the application; each call counts against its rate limit and daily quota */
                passkey: string;
            };
            header?: never;
            path: {
                /**
                 * @description GUID of the client response
                 * @example 0b6f3c2e-4d1a-4f7e-9a43-5c2d8e1f7a90
                 */
                responseGuid: string;
            };
            cookie?: never;
        };
        /** @description A JSON:API document whose primary data is a clientResponse resource object, or the public system's flat form with `attributes` at the top; exactly one of `data` and `attributes`. */
        requestBody: {
            content: {
                /** @example {
                 *       "data": {
                 *         "type": "clientResponse",
                 *         "attributes": {
                 *           "response": "Thank you, we have fixed it."
                 *         }
                 *       }
                 *     } */
                "application/json": {
                    attributes?: {
                        department?: string;
                        response?: string;
                        /** @description Name of the person answering; defaults to the application name as author */
                        responseBy?: string | null;
                    };
                    data?: {
                        attributes: {
                            department?: string;
                            response?: string;
                            /** @description Name of the person answering; defaults to the application name as author */
                            responseBy?: string | null;
                        };
                        /** @description The GUID in the URL; another one is 409 Conflict */
                        id?: string;
                        /**
                         * @description Any other type is answered 409 Conflict (JSON:API 1.1 §7.1.2, §7.2.3)
                         * @enum {string}
                         */
                        type: "clientResponse";
                    };
                };
                /** @example {
                 *       "data": {
                 *         "type": "clientResponse",
                 *         "attributes": {
                 *           "response": "Thank you, we have fixed it."
                 *         }
                 *       }
                 *     } */
                "application/vnd.api+json": {
                    attributes?: {
                        department?: string;
                        response?: string;
                        /** @description Name of the person answering; defaults to the application name as author */
                        responseBy?: string | null;
                    };
                    data?: {
                        attributes: {
                            department?: string;
                            response?: string;
                            /** @description Name of the person answering; defaults to the application name as author */
                            responseBy?: string | null;
                        };
                        /** @description The GUID in the URL; another one is 409 Conflict */
                        id?: string;
                        /**
                         * @description Any other type is answered 409 Conflict (JSON:API 1.1 §7.1.2, §7.2.3)
                         * @enum {string}
                         */
                        type: "clientResponse";
                    };
                };
            };
        };
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
            "4XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["ClientResponseDocument"];
                };
            };
            /** @description The passkey query parameter is missing or malformed; or the GUID is malformed; or the body is invalid (field and message say which member) */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description No bearer token, or one that is malformed, expired or revoked */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Developer Inactive: the passkey is unknown, inactive, or not a Response API passkey of this application */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Client Response Id does not exist (a response of a client the application is not granted is not shown either) */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description data.type is not clientResponse, or data.id is not the GUID in the URL */
            409: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The body is larger than BODY_LIMIT_BYTES */
            413: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The Content-Type is neither application/vnd.api+json nor application/json */
            415: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The passkey is over its rate limit (per minute) or its daily quota */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The database or the rate-limit store cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
        };
    };
    getClientResponseAuthor: {
        parameters: {
            query: {
                /** @description Response API passkey of the application; each call counts against its rate limit and daily quota */
                passkey: string;
            };
            header?: never;
            path: {
                /**
                 * @description GUID of the client response
                 * @example 0b6f3c2e-4d1a-4f7e-9a43-5c2d8e1f7a90
                 */
                responseGuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
            "4XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["AuthorDocument"];
                };
            };
            /** @description The passkey query parameter is missing or malformed; or the GUID is malformed */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description No bearer token, or one that is malformed, expired or revoked */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Developer Inactive: the passkey is unknown, inactive, or not a Response API passkey of this application */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Client Response Id does not exist (a response of a client the application is not granted is not shown either) */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The passkey is over its rate limit (per minute) or its daily quota */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The database or the rate-limit store cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
        };
    };
    getClientResponseAuthorRelationship: {
        parameters: {
            query: {
                /** @description Response API passkey of the application; each call counts against its rate limit and daily quota */
                passkey: string;
            };
            header?: never;
            path: {
                /**
                 * @description GUID of the client response
                 * @example 0b6f3c2e-4d1a-4f7e-9a43-5c2d8e1f7a90
                 */
                responseGuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
            "4XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["AuthorDocument"];
                };
            };
            /** @description The passkey query parameter is missing or malformed; or the GUID is malformed */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description No bearer token, or one that is malformed, expired or revoked */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Developer Inactive: the passkey is unknown, inactive, or not a Response API passkey of this application */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Client Response Id does not exist (a response of a client the application is not granted is not shown either) */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The passkey is over its rate limit (per minute) or its daily quota */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The database or the rate-limit store cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
        };
    };
    getClientResponseReviewRelationship: {
        parameters: {
            query: {
                /** @description Response API passkey of the application; each call counts against its rate limit and daily quota */
                passkey: string;
            };
            header?: never;
            path: {
                /**
                 * @description GUID of the client response
                 * @example 0b6f3c2e-4d1a-4f7e-9a43-5c2d8e1f7a90
                 */
                responseGuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
            "4XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["ReviewRelationshipDocument"];
                };
            };
            /** @description The passkey query parameter is missing or malformed; or the GUID is malformed */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description No bearer token, or one that is malformed, expired or revoked */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Developer Inactive: the passkey is unknown, inactive, or not a Response API passkey of this application */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Client Response Id does not exist (a response of a client the application is not granted is not shown either) */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The passkey is over its rate limit (per minute) or its daily quota */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The database or the rate-limit store cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
        };
    };
    getClientResponseReview: {
        parameters: {
            query: {
                /** @description Response API passkey of the application; each call counts against its rate limit and daily quota */
                passkey: string;
            };
            header?: never;
            path: {
                /**
                 * @description GUID of the client response
                 * @example 0b6f3c2e-4d1a-4f7e-9a43-5c2d8e1f7a90
                 */
                responseGuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
            "4XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["ReviewDocument"];
                };
            };
            /** @description The passkey query parameter is missing or malformed; or the GUID is malformed */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description No bearer token, or one that is malformed, expired or revoked */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Developer Inactive: the passkey is unknown, inactive, or not a Response API passkey of this application */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Client Response Id does not exist (a response of a client the application is not granted is not shown either) */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The passkey is over its rate limit (per minute) or its daily quota */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The database or the rate-limit store cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
        };
    };
    countReviewResponses: {
        parameters: {
            query: {
                /** @description Response API passkey of the application; each call counts against its rate limit and daily quota */
                passkey: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /** @example {
                 *       "reviewIds": [
                 *         "demo-acme-en_gb-1",
                 *         "demo-acme-en_gb-2"
                 *       ]
                 *     } */
                "application/json": {
                    reviewIds: string[];
                };
                /** @example {
                 *       "reviewIds": [
                 *         "demo-acme-en_gb-1",
                 *         "demo-acme-en_gb-2"
                 *       ]
                 *     } */
                "application/vnd.api+json": {
                    reviewIds: string[];
                };
            };
        };
        responses: {
            /** @description 405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ALLOWED_HOSTS), 431 (header section too large) */
            "4XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Server error; never shows internals */
            "5XX": {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Success */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResponseCounts"];
                };
            };
            /** @description The passkey query parameter is missing or malformed; or reviewIds is missing, holds a malformed id, or more than 1000 of them */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description No bearer token, or one that is malformed, expired or revoked */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description Developer Inactive: the passkey is unknown, inactive, or not a Response API passkey of this application */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The body is larger than BODY_LIMIT_BYTES */
            413: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The Content-Type is neither application/vnd.api+json nor application/json */
            415: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The passkey is over its rate limit (per minute) or its daily quota */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
            /** @description The database or the rate-limit store cannot serve right now, or the server is shutting down */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.api+json": components["schemas"]["JsonApiErrorDocument"];
                };
            };
        };
    };
    webhook_privacy_access_request_completed: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (msg_...), the same on every attempt: receivers dedupe on it */
                "webhook-id": string;
                /** @description Space-separated `v1,<base64 HMAC-SHA256 of id.timestamp.body>`, one per live secret (two during a rotation) */
                "webhook-signature": string;
                /** @description When this attempt was sent, in Unix seconds */
                "webhook-timestamp": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PrivacyRequestEvent"];
            };
        };
        responses: {
            /** @description Any 2xx: received */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled until an operator enables it again */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_privacy_access_request_created: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (msg_...), the same on every attempt: receivers dedupe on it */
                "webhook-id": string;
                /** @description Space-separated `v1,<base64 HMAC-SHA256 of id.timestamp.body>`, one per live secret (two during a rotation) */
                "webhook-signature": string;
                /** @description When this attempt was sent, in Unix seconds */
                "webhook-timestamp": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PrivacyRequestEvent"];
            };
        };
        responses: {
            /** @description Any 2xx: received */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled until an operator enables it again */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_privacy_forget_request_completed: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (msg_...), the same on every attempt: receivers dedupe on it */
                "webhook-id": string;
                /** @description Space-separated `v1,<base64 HMAC-SHA256 of id.timestamp.body>`, one per live secret (two during a rotation) */
                "webhook-signature": string;
                /** @description When this attempt was sent, in Unix seconds */
                "webhook-timestamp": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PrivacyRequestEvent"];
            };
        };
        responses: {
            /** @description Any 2xx: received */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled until an operator enables it again */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_privacy_forget_request_created: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (msg_...), the same on every attempt: receivers dedupe on it */
                "webhook-id": string;
                /** @description Space-separated `v1,<base64 HMAC-SHA256 of id.timestamp.body>`, one per live secret (two during a rotation) */
                "webhook-signature": string;
                /** @description When this attempt was sent, in Unix seconds */
                "webhook-timestamp": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PrivacyRequestEvent"];
            };
        };
        responses: {
            /** @description Any 2xx: received */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Gone: the endpoint is disabled until an operator enables it again */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
