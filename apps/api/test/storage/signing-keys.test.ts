import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createSecretBox, isConnectionLoss, isSealed, resealColumn } from '@customer-core/database';
import { testDatabaseKinds } from '@customer-core/database/testing';
import { race, racersOn, type ContractDatabase } from '@customer-core/database/testing/storage-contract';
import type { ApiDatabase } from '../../src/db/schema.js';
import { PRIVATE_KEY } from '../../src/db/sealed-columns.js';
import { retireSupersededKeys, signingKeyRepository } from '../../src/session/signing-key-repository.js';
import { generateSigningKey, ProductKeyRing, rotateSigningKey } from '../../src/session/signing-keys.js';
import { openApiStorage } from './support.js';

// The portal's signing keys for access tokens, kept in the database for every instance, their private
// halves sealed: first start-ups agree on one key, rotations queue behind each other.

const k1 = { id: 'k1', key: randomBytes(32) };
const secrets = createSecretBox([k1]);
const KEEP_EARLIER = { retireAfterSeconds: 3600, retireEarlierNow: false };
const RETIRE_NOW = { retireAfterSeconds: 3600, retireEarlierNow: true };

for (const kind of testDatabaseKinds()) {
  const racers = racersOn(kind);
  describe(`product signing keys (${kind})`, () => {
    let database: ContractDatabase<ApiDatabase>;
    before(async () => {
      database = await openApiStorage(kind);
    });
    after(() => database?.close());

    const kids = async () =>
      (await database.db.selectFrom('product_signing_key').select('kid').orderBy('created_at').execute()).map(
        (row) => row.kid,
      );
    const noKeys = () => database.db.deleteFrom('product_signing_key').execute();

    it(`${racers} instances starting at once on an empty database agree on one key, sealed at rest`, async () => {
      await noKeys();
      const rings = await race(racers, (i) =>
        ProductKeyRing.open(signingKeyRepository(i % 2 ? database.another() : database.db, secrets)),
      );
      const [kid] = await kids();
      assert.deepEqual(await kids(), [kid]);
      for (const ring of rings) {
        assert.equal(ring.active.kid, kid);
        assert.equal(ring.publicJwksJson(), rings[0]!.publicJwksJson());
      }
      const { private_key_pem } = await database.db
        .selectFrom('product_signing_key')
        .select('private_key_pem')
        .executeTakeFirstOrThrow();
      assert.equal(isSealed(private_key_pem), true);
      assert.doesNotMatch(private_key_pem, /PRIVATE KEY/);
    });

    it('seals a key kept before sealing began when an instance starts', async () => {
      await noKeys();
      const plain = generateSigningKey();
      await database.db
        .insertInto('product_signing_key')
        .values({
          kid: plain.kid,
          private_key_pem: plain.privateKeyPem,
          public_jwk: JSON.stringify(plain.publicJwk),
        })
        .execute();
      const ring = await ProductKeyRing.open(signingKeyRepository(database.db, secrets));
      assert.equal(ring.active.kid, plain.kid);
      const { private_key_pem } = await database.db
        .selectFrom('product_signing_key')
        .select('private_key_pem')
        .executeTakeFirstOrThrow();
      assert.equal(isSealed(private_key_pem), true);
      assert.equal(await resealColumn(database.db, secrets, PRIVATE_KEY, 'plain'), 0, 'nothing left to seal');
    });

    it('rotates in a key that signs from then on; earlier keys verify until retired', async () => {
      await noKeys();
      const ring = await ProductKeyRing.open(signingKeyRepository(database.db, secrets));
      const first = ring.active.kid;
      const rotation = await rotateSigningKey(signingKeyRepository(database.db, secrets), KEEP_EARLIER);
      assert.deepEqual(rotation.verifyingKids, [first, rotation.activeKid]);
      assert.deepEqual(rotation.retiredKids, []);
      await ring.reload();
      assert.equal(ring.active.kid, rotation.activeKid);
      assert.ok(ring.find(first), 'the earlier key still verifies');

      // Superseded long enough ago: retired.
      await sql`update product_signing_key set created_at = created_at - interval '2 hours'`.execute(
        database.db,
      );
      assert.deepEqual(await retireSupersededKeys(database.db, 3600), [first]);
      assert.deepEqual(await kids(), [rotation.activeKid], 'the newest key is never retired');
    });

    it('after a leak, a rotation retires every earlier key at once', async () => {
      await ProductKeyRing.open(signingKeyRepository(database.db, secrets));
      await rotateSigningKey(signingKeyRepository(database.db, secrets), KEEP_EARLIER);
      const before = await kids();
      const rotation = await rotateSigningKey(signingKeyRepository(database.db, secrets), RETIRE_NOW);
      assert.deepEqual(rotation.retiredKids.sort(), [...before].sort());
      assert.deepEqual(await kids(), [rotation.activeKid]);
    });

    it('concurrent rotations queue: each adds its key, and of rotations after a leak the last one’s is left', async () => {
      await ProductKeyRing.open(signingKeyRepository(database.db, secrets));
      const before = await kids();
      const rotations = await race(10, (i) =>
        rotateSigningKey(
          signingKeyRepository(i % 2 ? database.another() : database.db, secrets),
          KEEP_EARLIER,
        ),
      );
      for (const rotation of rotations) assert.ok(rotation.verifyingKids.includes(rotation.activeKid));
      assert.equal((await kids()).length, before.length + 10);

      const leaks = await race(10, (i) =>
        rotateSigningKey(signingKeyRepository(i % 2 ? database.another() : database.db, secrets), RETIRE_NOW),
      );
      const left = await kids();
      assert.equal(left.length, 1);
      assert.equal(leaks.filter((rotation) => rotation.activeKid === left[0]).length, 1);
    });

    it('seals every key again under a new key-encryption key, after which the old one is not needed', async () => {
      await ProductKeyRing.open(signingKeyRepository(database.db, secrets));
      await rotateSigningKey(signingKeyRepository(database.db, secrets), KEEP_EARLIER);
      const keys = await kids();
      const k2 = { id: 'k2', key: randomBytes(32) };
      assert.equal(
        await resealColumn(database.db, createSecretBox([k2, k1]), PRIVATE_KEY, 'stale'),
        keys.length,
      );
      const ring = await ProductKeyRing.open(signingKeyRepository(database.db, createSecretBox([k2])));
      assert.deepEqual(
        ring.publicJwks().keys.map((key) => key.kid),
        keys,
      );
      await noKeys(); // the other tests seal with k1
    });

    if (kind === 'postgres') {
      it('a rotation whose connection is lost adds no key', async () => {
        await ProductKeyRing.open(signingKeyRepository(database.db, secrets));
        const before = await kids();
        const error = await database.cutWhileWaiting(
          "select pg_advisory_xact_lock(hashtext('product_signing_key'))",
          [],
          () => rotateSigningKey(signingKeyRepository(database.db, secrets), RETIRE_NOW),
        );
        assert.equal(isConnectionLoss(error), true, String(error));
        assert.deepEqual(await kids(), before);
        assert.equal(
          (await rotateSigningKey(signingKeyRepository(database.db, secrets), RETIRE_NOW)).retiredKids.length,
          before.length,
        );
      });
    }
  });
}
