import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApplication } from '../../../src/services/tenancy/create-application.js';
import { createClient } from '../../../src/services/tenancy/create-client.js';
import { revokeApplication } from '../../../src/services/tenancy/revoke-application.js';
import {
  claimTenancyRevision,
  readTenancyRevision,
} from '../../../src/store/repositories/tenancy-revisions.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../../helpers/test-runtime.js';

describe(`tenancy revisions on ${TEST_DIALECT}`, () => {
  let rt: TestRuntime;
  before(async () => {
    rt = await createTestRuntime();
  });
  after(() => rt.close());
  const revision = (env: 'production' | 'staging') => readTenancyRevision(rt.deps.store.db, env);

  it('moves with every tenancy change of its environment, and only its own', async () => {
    assert.equal(await revision('production'), 0);
    await createClient(rt.deps, { environment: 'production', name: 'Acme' });
    assert.equal(await revision('production'), 1);
    const app = await createApplication(rt.deps, {
      environment: 'production',
      name: 'web',
      clientNames: ['Acme'],
    });
    assert.equal(await revision('production'), 2);
    // Its audit entry names no environment: it is found by its application.
    await revokeApplication(rt.deps, { applicationId: app.application.id });
    assert.equal(await revision('production'), 3);
    assert.equal(await revision('staging'), 0);
  });

  it('is claimed only at the revision expected', async () => {
    const db = rt.deps.store.db;
    assert.equal(await claimTenancyRevision(db, 'staging', 1), false);
    assert.equal(await claimTenancyRevision(db, 'staging', 0), true);
    assert.equal(await claimTenancyRevision(db, 'staging', 0), false);
    assert.equal(await claimTenancyRevision(db, 'staging', 1), true);
    assert.equal(await revision('staging'), 2);
  });
});
