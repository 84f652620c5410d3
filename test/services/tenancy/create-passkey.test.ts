import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApplication } from '../../../src/services/tenancy/create-application.js';
import { createPasskey } from '../../../src/services/tenancy/create-passkey.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../../helpers/test-runtime.js';

describe(`createPasskey on ${TEST_DIALECT}`, () => {
  let now = Date.UTC(2026, 10, 27, 12);
  let rt: TestRuntime;
  let applicationId: string;
  before(async () => {
    rt = await createTestRuntime({}, { clock: () => now });
    applicationId = (
      await createApplication(rt.deps, { environment: 'production', name: 'Expiring', clientNames: [] })
    ).application.id;
  });
  after(() => rt.close());

  it('issues a passkey until its expiry; the first usable one of the application is its default', async () => {
    const first = await createPasskey(rt.deps, { applicationId, api: 'response', expiresAt: now + 1000 });
    assert.deepEqual(
      [first.passkey.expiresAt, first.passkey.isDefault, first.passkey.lastUsedAt],
      [now + 1000, true, null],
    );
    const second = await createPasskey(rt.deps, { applicationId, api: 'response' });
    assert.equal(second.passkey.isDefault, false);
    now += 1000;
    // The first has expired, but the second is still usable: it is the one charged, not a new one.
    const third = await createPasskey(rt.deps, { applicationId, api: 'privacy' });
    assert.equal(third.passkey.expiresAt, null);
    assert.equal(third.passkey.isDefault, false, 'the second, still usable, remains the one charged');
  });

  it('refuses an expiry that is not ahead', async () => {
    for (const expiresAt of [now, now - 1])
      await assert.rejects(createPasskey(rt.deps, { applicationId, api: 'response', expiresAt }), {
        code: 'INVALID_PROPERTY_VALUE',
        field: 'expiresAt',
      });
  });
});
