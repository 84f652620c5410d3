import { Type } from 'typebox';

/** RFC 6749 §5.2 error body. */
export const OAuthError = Type.Object(
  {
    error: Type.String({
      description:
        'invalid_request, invalid_client, unauthorized_client, unsupported_grant_type, invalid_scope, ' +
        'slow_down (rate limit, quota or too many failed logins; see Retry-After), server_error',
      examples: ['invalid_client'],
    }),
    error_description: Type.String({ examples: ['client authentication failed'] }),
  },
  { description: 'RFC 6749 §5.2 error', $id: 'OAuthError' },
);

// Unrecognised parameters are ignored (RFC 6749 §3.2), hence no additionalProperties: false.
const clientId = Type.Optional(
  Type.String({
    description: 'client_secret_post: the client id (omit with HTTP Basic, or repeat the same id)',
  }),
);
const clientSecret = Type.Optional(
  Type.String({ description: 'client_secret_post: the client secret (never together with HTTP Basic)' }),
);

const TokenRequest = Type.Object(
  {
    grant_type: Type.String({
      description: 'Must be `client_credentials`',
      examples: ['client_credentials'],
    }),
    client_id: clientId,
    client_secret: clientSecret,
    scope: Type.Optional(
      Type.String({ description: 'Omit, or `offline_access`', examples: ['offline_access'] }),
    ),
  },
  { description: 'Each parameter at most once; parameters without a value count as omitted' },
);

const TokenQuery = Type.Object({
  passkey: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'Passkey (of either API) of the same application charged for this call; default: the ' +
        "application's default passkey. Unknown or someone else's: 400 invalid_request",
    }),
  ),
});

export const TokenResponse = Type.Object(
  {
    access_token: Type.String({
      description: 'Opaque bearer token (`rpa_at_` + base64url): treat it as a string',
    }),
    token_type: Type.Literal('Bearer'),
    expires_at: Type.Integer({ description: 'Expiry time, epoch milliseconds' }),
    expires_in: Type.Integer({ description: 'Lifetime in seconds (RFC 6749 §5.1)' }),
    scope: Type.Literal('offline_access'),
    refresh_token: Type.Literal('null', { description: 'The literal text "null": no refresh token exists' }),
  },
  { description: 'Access token (sent with Cache-Control: no-store)', $id: 'TokenResponse' },
);

/** client_secret_post credentials, as both token and revocation requests may carry them. */
const ClientCredentialsBody = Type.Object({ client_id: clientId, client_secret: clientSecret });

const RevocationRequest = Type.Object({
  token: Type.String({ description: 'The access token to revoke' }),
  token_type_hint: Type.Optional(
    Type.String({ description: 'Ignored: access tokens are the only kind (RFC 7009 §2.1)' }),
  ),
  client_id: clientId,
  client_secret: clientSecret,
});

// RFC 7009 §2.2: clients ignore the body; an empty JSON object keeps clients that insist on a
// JSON answer (simple-oauth2) working.
export const REVOKED = 'Revoked, or the token was unknown or not this client’s (RFC 7009 §2.2)';
export const Revoked = Type.Object({}, { description: REVOKED });

export const AuthorizationServerMetadata = Type.Object(
  {
    issuer: Type.String({ description: "The request's base URL (staging hosts have their own issuer)" }),
    token_endpoint: Type.String(),
    revocation_endpoint: Type.String(),
    grant_types_supported: Type.Array(Type.String()),
    response_types_supported: Type.Array(Type.String()),
    token_endpoint_auth_methods_supported: Type.Array(Type.String()),
    revocation_endpoint_auth_methods_supported: Type.Array(Type.String()),
    scopes_supported: Type.Array(Type.String()),
  },
  { description: 'RFC 8414 authorization server metadata', $id: 'AuthorizationServerMetadata' },
);

/** What each operation reads from a request; auth-operations.ts adds the answers. */
export const IssueToken = { querystring: TokenQuery, body: TokenRequest };
export const RevokeToken = { body: RevocationRequest };
export const AuthenticateClient = { body: ClientCredentialsBody };
