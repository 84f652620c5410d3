/**
 * The peer: node-oidc-provider's client-credentials token endpoint, configured as close to this
 * service as it allows: one confidential client, client_secret_post, opaque access tokens with a
 * 60-minute lifetime, no DPoP/mTLS/resource indicators. Its default adapter keeps tokens in memory,
 * which flatters it (this service writes every token to its database).
 * Input (env): CLIENT_ID, CLIENT_SECRET, PORT. Prints "listening <port>" when ready.
 */
import { createServer } from 'node:http';
// @ts-expect-error oidc-provider ships no type declarations.
import Provider from 'oidc-provider';

const port = Number(process.env.PORT ?? 0);
const server = createServer();
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  const provider = new Provider(`http://127.0.0.1:${actual}`, {
    clients: [
      {
        client_id: process.env.CLIENT_ID ?? 'bench-client',
        client_secret: process.env.CLIENT_SECRET ?? 'bench-secret-bench-secret-bench-secret',
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    features: { clientCredentials: { enabled: true }, devInteractions: { enabled: false } },
    ttl: { ClientCredentials: 3600 },
    scopes: ['offline_access'],
  });
  // Quiet: the peer must not pay for logging the benchmark's requests either.
  provider.on('server_error', (_ctx: unknown, err: Error) => process.stderr.write(`${err.message}\n`));
  server.on('request', provider.callback());
  process.stdout.write(`listening ${actual}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
