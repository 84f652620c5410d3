import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { privacySubject } from '../../../src/domain/privacy-subject.js';
import { findLinkedIdentifiers } from '../../../src/store/repositories/privacy-subjects.js';
import { importReviewsBy, seedPrivacyTenant } from '../../helpers/privacy-fixtures.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../../helpers/test-runtime.js';

// The look-up is compiled once per shape (how many identifiers, how many clients); every shape,
// including those past the ones kept, must find the same identifiers.
describe(`identifiers linked to the named ones on ${TEST_DIALECT}`, () => {
  let rt: TestRuntime;
  let gb: string;
  let de: string;
  const key = () => rt.deps.identifierKey;
  const FAY = {
    name: 'Fay Linked',
    authorId: 'fay-1',
    emailAddress: 'fay@example.com',
    phoneNumber: '+44 20 7946 0999',
  };

  before(async () => {
    rt = await createTestRuntime();
    await seedPrivacyTenant(rt.deps);
    // In GB her reviews carry every identifier; in DE only her author id.
    await importReviewsBy(rt.deps, FAY, { clientName: 'Acme-EN_GB', count: 2 });
    await importReviewsBy(
      rt.deps,
      { name: FAY.name, authorId: FAY.authorId },
      { clientName: 'Acme-DE_DE', count: 1 },
    );
    const clients = await rt.deps.store.db.selectFrom('clients').select(['id', 'name']).execute();
    gb = clients.find((c) => c.name === 'Acme-EN_GB')?.id as string;
    de = clients.find((c) => c.name === 'Acme-DE_DE')?.id as string;
  });
  after(() => rt.close());

  const linked = async (identifiers: Record<string, string>, clientIds: string[]) =>
    (
      await findLinkedIdentifiers(rt.deps.store.db, {
        clientIds,
        identifiers: privacySubject(key(), identifiers),
      })
    )
      .map((k) => `${k.clientId === gb ? 'gb' : k.clientId === de ? 'de' : k.clientId} ${k.kind}`)
      .sort();

  it('finds what each shape of request links, only in the clients named', async () => {
    assert.deepEqual(await linked({ emailAddress: FAY.emailAddress }, [gb]), [
      'gb authorId',
      'gb emailAddress',
      'gb phoneNumber',
    ]);
    assert.deepEqual(await linked({ emailAddress: FAY.emailAddress }, [de]), []);
    assert.deepEqual(await linked({ authorId: FAY.authorId }, [de]), ['de authorId']);
    assert.deepEqual(await linked({ authorId: FAY.authorId, phoneNumber: FAY.phoneNumber }, [gb, de]), [
      'de authorId',
      'gb authorId',
      'gb emailAddress',
      'gb phoneNumber',
    ]);
    assert.deepEqual(await linked({ emailAddress: 'nobody@example.com' }, [gb, de]), []);
  });

  it('finds the same past the shapes it keeps compiled', async () => {
    // 80 shapes: identifiers 1–2 named × 1–40 client ids (the others unknown).
    for (let clients = 1; clients <= 40; clients += 1) {
      const ids = [gb, ...Array.from({ length: clients - 1 }, (_, i) => `no-such-client-${i}`)];
      assert.deepEqual(await linked({ emailAddress: FAY.emailAddress }, ids), [
        'gb authorId',
        'gb emailAddress',
        'gb phoneNumber',
      ]);
      assert.deepEqual(
        await linked({ authorId: FAY.authorId, emailAddress: FAY.emailAddress }, [...ids, de]),
        ['de authorId', 'gb authorId', 'gb emailAddress', 'gb phoneNumber'],
      );
    }
  });
});
