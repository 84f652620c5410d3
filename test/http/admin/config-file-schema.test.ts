import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkTenancyFile, type TenancyFile } from '../../../src/domain/tenancy-file.js';
import {
  configFileJsonSchema,
  configFileProblems,
  convertConfigFile,
} from '../../../src/http/admin/config-file-schema.js';

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

  it("refuses a '/' in a passkey's name: `<application>/<passkey>` would name two passkeys", () => {
    const file = (name: string) => ({
      apiVersion: 'rpa/v1',
      environment: 'production',
      stack: 's',
      applications: [{ name: 'a', passkeys: [{ name, api: 'response' }] }],
    });
    assert.deepEqual(
      configFileProblems(file('b/c')).map((p) => p.path),
      ['applications[0].passkeys[0].name'],
    );
    assert.deepEqual(configFileProblems(file('b c')), []);
  });

  it('reads a number or a boolean from text only where the whole value came from the environment', () => {
    const doc = {
      apiVersion: 'rpa/v1',
      environment: 'production',
      stack: 's',
      applications: [
        {
          name: 'w',
          passkeys: [{ name: 'p', api: 'response', quotaPerDay: '100', rateLimitPerMinute: '5' }],
        },
      ],
    };
    const at = 'applications[0].passkeys[0]';
    const converted = convertConfigFile(doc, new Set([`${at}.quotaPerDay`]));
    assert.deepEqual(
      configFileProblems(converted).map((p) => p.path),
      [`${at}.rateLimitPerMinute`],
      'as the printed schema says: "5" in the file is text',
    );
  });

  it('is printed as a JSON Schema refusing unknown fields everywhere', () => {
    const text = JSON.stringify(configFileJsonSchema());
    assert.ok(!text.includes('"additionalProperties":true'));
    assert.equal((text.match(/"additionalProperties":false/g) ?? []).length, 5);
  });

  it('refuses an expiry a date cannot be read from, a leap second included', () => {
    const file: TenancyFile = {
      apiVersion: 'rpa/v1',
      environment: 'production',
      stack: 's',
      applications: [
        { name: 'w', passkeys: [{ name: 'p', api: 'response', expiresAt: '2027-12-31T23:59:60Z' }] },
      ],
    };
    assert.deepEqual(configFileProblems(file), [], 'RFC 3339 allows a leap second');
    assert.deepEqual(
      checkTenancyFile(file).map((p) => `${p.path}: ${p.message}`),
      ['applications[0].passkeys[0].expiresAt: not a time that can be read: 2027-12-31T23:59:60Z'],
    );
  });

  it('refuses duplicates, leaving client names it does not list to the plan', () => {
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
        'applications[0].passkeys[1].name: duplicate passkey p',
        'applications[0].webhooks[1].url: duplicate webhook url https://h.example/x',
        'applications[1].name: duplicate application w',
      ],
    );
  });
});
