import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { createSecretBox, parseSecretKeys, secretPlace, SecretOpenError } from '../src/secret-box.js';

// The envelope of the secrets kept in the database: AES-256-GCM under a named key, bound to its row.

const key = (id: string) => ({ id, key: randomBytes(32) });
const here = secretPlace('idp_factor', 'secret', 'uf1');

describe('secret box', () => {
  it('seals under the first key with a fresh IV, names the key, and opens with any key of the ring', () => {
    const [k1, k2] = [key('k1'), key('k2')];
    const old = createSecretBox([k1]);
    const sealed = old.seal('JBSWY3DPEHPK3PXP', here);
    assert.match(sealed, /^v1:k1:[\w-]{16}:[\w-]+:[\w-]{22}$/);
    assert.ok(!sealed.includes('JBSWY3DPEHPK3PXP'));
    assert.notEqual(old.seal('JBSWY3DPEHPK3PXP', here), sealed, 'a new IV each time');
    const ring = createSecretBox([k2, k1]);
    assert.equal(ring.open(sealed, here), 'JBSWY3DPEHPK3PXP');
    assert.equal(ring.isCurrent(sealed), false);
    assert.equal(ring.isCurrent(ring.seal('x', here)), true);
  });

  it('opens nothing moved to another row, altered, or sealed with a key it does not hold', () => {
    const k1 = key('k1');
    const box = createSecretBox([k1]);
    const sealed = box.seal('JBSWY3DPEHPK3PXP', here);
    assert.throws(() => box.open(sealed, secretPlace('idp_factor', 'secret', 'uf2')), SecretOpenError);
    const parts = sealed.split(':');
    const flipped = Buffer.from(parts[3]!, 'base64url');
    flipped[0]! ^= 1;
    parts[3] = flipped.toString('base64url');
    assert.throws(() => box.open(parts.join(':'), here), SecretOpenError);
    assert.throws(
      () => createSecretBox([{ id: 'k1', key: randomBytes(32) }]).open(sealed, here),
      SecretOpenError,
    );
    assert.throws(() => createSecretBox([key('k2')]).open(sealed, here), /no key "k1"/);
  });

  it('reads a value kept before sealing began as it is', () => {
    assert.equal(
      createSecretBox([key('k1')]).open('-----BEGIN PRIVATE KEY-----', here),
      '-----BEGIN PRIVATE KEY-----',
    );
  });

  it('parses a ring of kid:base64 keys and refuses a short key, a bad id or a key id given twice', () => {
    const entry = `k1:${randomBytes(32).toString('base64')}`;
    const parsed = parseSecretKeys(` ${entry} ,k2:${randomBytes(32).toString('base64url')}`);
    assert.ok('keys' in parsed);
    assert.deepEqual(
      parsed.keys.map((k) => k.id),
      ['k1', 'k2'],
    );
    for (const bad of [
      `k1:${randomBytes(31).toString('base64')}`,
      `k 1:${randomBytes(32).toString('base64')}`,
      `${entry},${entry}`,
    ])
      assert.ok('problem' in parseSecretKeys(bad), bad);
  });
});
