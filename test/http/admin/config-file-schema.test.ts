import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkTenancyFile, type TenancyFile } from '../../../src/domain/tenancy-file.js';
import { configFileJsonSchema, configFileProblems } from '../../../src/http/admin/config-file-schema.js';

describe('the configuration file schema', () => {
  it('names the path of each problem, unknown fields included', () => {
    assert.deepEqual(
      configFileProblems({
        apiVersion: 'rpa/v1',
        environment: 'qa',
        applications: [
          { name: 'w', passkeys: [{ name: 'p', api: 'response', rateLimit: 1, quotaPerDay: 0 }] },
        ],
      }),
      [
        { path: 'stack', message: 'missing' },
        { path: 'environment', message: 'must be one of the allowed values' },
        { path: 'applications[0].passkeys[0].rateLimit', message: 'unknown field' },
        { path: 'applications[0].passkeys[0].quotaPerDay', message: 'must be >= 1' },
      ],
    );
  });

  it('is printed as a JSON Schema refusing unknown fields everywhere', () => {
    const text = JSON.stringify(configFileJsonSchema());
    assert.ok(!text.includes('"additionalProperties":true'));
    assert.equal((text.match(/"additionalProperties":false/g) ?? []).length, 5);
  });

  it('refuses duplicates and client names the file does not list', () => {
    const file: TenancyFile = {
      apiVersion: 'rpa/v1',
      environment: 'production',
      stack: 's',
      clients: [{ name: 'A' }],
      applications: [
        {
          name: 'w',
          clientNames: ['A', 'B'],
          passkeys: [
            { name: 'p', api: 'response' },
            { name: 'p', api: 'privacy' },
          ],
          webhooks: [{ url: 'https://H.example/x' }, { url: 'https://h.example/x' }],
        },
        { name: 'w' },
      ],
    };
    assert.deepEqual(
      checkTenancyFile(file).map((p) => `${p.path}: ${p.message}`),
      [
        'applications[0].clientNames[1]: unknown client B: list it under clients',
        'applications[0].passkeys[1].name: duplicate passkey p',
        'applications[0].webhooks[1].url: duplicate webhook url https://h.example/x',
        'applications[1].name: duplicate application w',
      ],
    );
  });
});
