import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type HookHandlerDoneFunction,
} from 'fastify';
import { Type } from 'typebox';
import { apiRoutesSetup, resourceApi } from '../../src/http/api-routes-setup.js';
import { sendProblem } from '../../src/http/errors/render.js';
import { registerRouteTable, route } from '../../src/http/route-table.js';
import { resolveSite } from '../../src/http/steps/resolve-site.js';
import '../../src/http/request-context.js';
import { type PrivacyTenant, seedPrivacyTenant } from '../helpers/privacy-fixtures.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../helpers/test-runtime.js';

describe(`the steps of an API's routes on ${TEST_DIALECT}`, () => {
  let runtime: TestRuntime;
  let tenant: PrivacyTenant;
  let app: FastifyInstance;
  /** The passkey each request had when the route's own onRequest step ran. */
  const seenByOwnStep: Array<string | null> = [];

  before(async () => {
    runtime = await createTestRuntime();
    tenant = await seedPrivacyTenant(runtime.deps);
    app = Fastify();
    app.decorateRequest('site', null as never);
    app.decorateRequest('principal', null);
    app.decorateRequest('passkey', null);
    app.decorateRequest('errorCode', null);
    app.addHook('onRequest', resolveSite(runtime.http.config));
    const ownStep = (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
      seenByOwnStep.push(request.passkey?.id ?? null);
      done();
    };
    await app.register(
      async (plugin) => {
        const api = resourceApi(runtime.http, {
          passkeyApi: 'privacy',
          render: sendProblem,
          bodyTypes: ['application/json'],
          errorBody: { mediaType: 'application/problem+json', schema: Type.Object({}) },
          everyAnswer: {},
        });
        apiRoutesSetup(plugin, api);
        const operation = {
          operationId: 'ownSteps',
          tag: 'Test',
          summary: 'A route with an onRequest step of its own',
          request: {},
          answer: { status: 204, mediaType: 'application/json', schema: null },
          errors: {},
        };
        registerRouteTable(plugin, api, [
          route('GET', '/own-steps', operation, { steps: { onRequest: [ownStep] } }, (_request, reply) =>
            reply.code(204).send(),
          ),
        ]);
      },
      { prefix: '/privacy/v1' },
    );
    await app.ready();
  });
  after(async () => {
    await app.close();
    await runtime.close();
  });

  const call = (headers: Record<string, string>, query = '') =>
    app.inject({ url: `/privacy/v1/own-steps${query}`, headers: { host: 'localhost', ...headers } });

  it("runs a route's own onRequest steps after the API's, never instead of them", async () => {
    const anonymous = await call({}, `?passkey=${tenant.privacyPasskey}`);
    assert.equal(anonymous.statusCode, 401, 'no bearer token');
    const bearer = { authorization: `Bearer ${tenant.token}` };
    assert.equal((await call(bearer)).statusCode, 400, 'no passkey');
    assert.equal((await call(bearer, '?passkey=not-a-passkey')).statusCode, 403, 'an unknown passkey');
    assert.deepEqual(seenByOwnStep, [], 'the own step never ran for a refused request');
    const served = await call(bearer, `?passkey=${tenant.privacyPasskey}`);
    assert.equal(served.statusCode, 204);
    assert.match(String(served.headers.ratelimit), /"minute";r=/, 'the call was charged');
    assert.deepEqual(seenByOwnStep, [tenant.privacyPasskeyId], 'the own step ran after the passkey step');
  });
});
