import assert from 'node:assert/strict';
import { createHmac, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { after, before, describe, it, mock } from 'node:test';
import { createSecretBox, openDatabase } from '@customer-core/database';
import { createTestDatabase } from '@customer-core/database/testing';
import { decodeAccessToken } from '@customer-core/contracts';
import type { Kysely } from 'kysely';
import { apiMigrations } from '../src/db/migrations.js';
import type { ApiDatabase } from '../src/db/schema.js';
import { ProductTokens } from '../src/session/product-token.js';
import { signingKeyRepository } from '../src/session/signing-key-repository.js';
import { KEY_RING_RELOAD_SECONDS, ProductKeyRing, rotateSigningKey } from '../src/session/signing-keys.js';

const ISSUER = 'http://localhost:8080';
const subject = {
  borrowerId: '5d7f5c8e-8f0e-4a57-9c1e-1d2b3c4d5e6f',
  email: 'dana@example.com',
  externalIds: [],
};
/** The key that seals the signing keys in the database, as SECRETS_KEYS gives it. */
const secrets = createSecretBox([{ id: 'test', key: randomBytes(32) }]);
const KEEP_EARLIER_KEYS = { retireAfterSeconds: 3600, retireEarlierNow: false };
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const session = { sid: 'session-1', authTime: Math.floor(Date.now() / 1000), generation: 0 };

describe('product access tokens', () => {
  let db: Kysely<ApiDatabase>;
  let drop: () => Promise<void>;
  let tokens: ProductTokens;

  before(async () => {
    const database = await createTestDatabase('pglite', { api: apiMigrations });
    drop = database.drop;
    db = openDatabase<ApiDatabase>(database.location);
    tokens = new ProductTokens(await ProductKeyRing.open(signingKeyRepository(db, secrets)), {
      issuer: ISSUER,
      ttlSeconds: 600,
      sessionMaxAgeSeconds: 3600,
    });
  });
  after(async () => {
    await db.destroy();
    await drop();
  });

  it('issues the claims of spec section 3, readable by the browser model', async () => {
    const { token } = tokens.issue(subject, session);
    const decoded = decodeAccessToken(token);
    assert.equal(decoded?.userId, subject.borrowerId);
    assert.equal(decoded?.email, 'dana@example.com');
    assert.equal(decoded?.issuer, ISSUER);
    assert.equal(decoded?.scope, 'borrower');
    assert.equal(decoded?.isValid, true);
    assert.equal(decoded.exp - decoded.iat, 600);
    const verified = await tokens.verify(token);
    assert.equal(verified.ok, true);
  });

  it('never lets a token outlive its session', () => {
    const late = { sid: 'session-2', authTime: Math.floor(Date.now() / 1000) - 3500, generation: 0 };
    const { claims } = tokens.issue(subject, late);
    assert.equal(claims.exp, late.authTime + 3600);
    assert.equal(claims.sid, 'session-2');
  });

  it('refuses a token without a session id (not one of ours)', async () => {
    const { claims, token } = tokens.issue(subject, session);
    const { sid: _sid, ...withoutSid } = claims;
    const [header] = token.split('.');
    // Signed correctly below would need the key; a missing claim is caught before that matters.
    assert.equal(
      (await tokens.verify(`${header}.${b64({ ...withoutSid, aud: 'customer-core' })}.x`)).ok,
      false,
    );
  });

  it('gives every token its own id', () => {
    assert.notEqual(tokens.issue(subject, session).claims.jti, tokens.issue(subject, session).claims.jti);
  });

  it('refuses an expired token unless asked to allow it', async () => {
    const { token } = tokens.issue(subject, tokens.newSession(Date.now() - 601_000), Date.now() - 601_000);
    assert.deepEqual(await tokens.verify(token), { ok: false, problem: 'expired' });
    assert.equal((await tokens.verify(token, { allowExpired: true })).ok, true);
  });

  it('refuses a tampered payload', async () => {
    const [h, , s] = tokens.issue(subject, session).token.split('.');
    const forged = `${h}.${b64({ ...tokens.issue(subject, session).claims, sub: 'someone-else', aud: 'customer-core' })}.${s}`;
    assert.deepEqual(await tokens.verify(forged), { ok: false, problem: 'bad_signature' });
  });

  it('remembers a verified token without trusting it further: expiry, key and every byte still count', async () => {
    const rotated = await rotateSigningKey(signingKeyRepository(db, secrets), KEEP_EARLIER_KEYS);
    const ring = await ProductKeyRing.open(signingKeyRepository(db, secrets));
    const ringTokens = new ProductTokens(ring, {
      issuer: ISSUER,
      ttlSeconds: 600,
      sessionMaxAgeSeconds: 3600,
    });
    const { token, claims } = ringTokens.issue(subject, session);
    assert.equal((await ringTokens.verify(token)).ok, true);
    assert.equal((await ringTokens.verify(token)).ok, true);

    const [h, , s] = token.split('.');
    const forged = `${h}.${b64({ ...claims, sub: 'someone-else', aud: 'customer-core' })}.${s}`;
    assert.deepEqual(await ringTokens.verify(forged), { ok: false, problem: 'bad_signature' });
    assert.deepEqual(await ringTokens.verify(token, { now: claims.exp * 1000 }), {
      ok: false,
      problem: 'expired',
    });

    await db.deleteFrom('product_signing_key').where('kid', '=', rotated.activeKid).execute();
    await ring.reload();
    assert.deepEqual(await ringTokens.verify(token), { ok: false, problem: 'bad_signature' });
  });

  it('forgets a token it is told is spent: presented again, it is verified in full', async () => {
    const ring = await ProductKeyRing.open(signingKeyRepository(db, secrets));
    const ringTokens = new ProductTokens(ring, {
      issuer: ISSUER,
      ttlSeconds: 600,
      sessionMaxAgeSeconds: 3600,
    });
    const lookups = mock.method(ring, 'findOrReload');
    const { token } = ringTokens.issue(subject, session);
    assert.equal((await ringTokens.verify(token)).ok, true);
    assert.equal(lookups.mock.callCount(), 0, 'an issued token is known without a signature check');

    ringTokens.forget(token);
    assert.equal((await ringTokens.verify(token)).ok, true);
    assert.equal(lookups.mock.callCount(), 1, 'a forgotten token has its signature checked again');
  });

  it('a token it issued checks out from memory exactly as another instance verifies it', async () => {
    const { token } = tokens.issue(subject, session);
    const elsewhere = new ProductTokens(await ProductKeyRing.open(signingKeyRepository(db, secrets)), {
      issuer: ISSUER,
      ttlSeconds: 600,
      sessionMaxAgeSeconds: 3600,
    });
    const here = await tokens.verify(token);
    assert.equal(here.ok, true);
    assert.deepEqual(here, await elsewhere.verify(token));
  });

  it("refuses alg 'none'", async () => {
    const { claims } = tokens.issue(subject, session);
    const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims, aud: 'customer-core' })}.`;
    assert.deepEqual(await tokens.verify(unsigned), { ok: false, problem: 'unsupported_algorithm' });
  });

  it('refuses HS256 signed with the public key (algorithm confusion)', async () => {
    const { claims } = tokens.issue(subject, session);
    const jwks = (await ProductKeyRing.open(signingKeyRepository(db, secrets))).publicJwks();
    const input = `${b64({ alg: 'HS256', kid: jwks.keys[0]!.kid })}.${b64({ ...claims, aud: 'customer-core' })}`;
    const mac = createHmac('sha256', JSON.stringify(jwks.keys[0])).update(input).digest('base64url');
    assert.deepEqual(await tokens.verify(`${input}.${mac}`), {
      ok: false,
      problem: 'unsupported_algorithm',
    });
  });

  it('refuses a token signed by a key it does not hold', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const { claims } = tokens.issue(subject, session);
    const input = `${b64({ alg: 'ES256', kid: 'not-ours' })}.${b64({ ...claims, aud: 'customer-core' })}`;
    const sig = sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString(
      'base64url',
    );
    assert.deepEqual(await tokens.verify(`${input}.${sig}`), { ok: false, problem: 'bad_signature' });
  });

  it('refuses another issuer and malformed input', async () => {
    const other = new ProductTokens(await ProductKeyRing.open(signingKeyRepository(db, secrets)), {
      issuer: 'https://elsewhere.example',
      ttlSeconds: 600,
      sessionMaxAgeSeconds: 3600,
    });
    assert.deepEqual(await tokens.verify(other.issue(subject, session).token), {
      ok: false,
      problem: 'wrong_issuer',
    });
    for (const junk of ['', 'a.b', 'a.b.c', '...', 'x'.repeat(50)]) {
      assert.deepEqual(await tokens.verify(junk), { ok: false, problem: 'malformed' }, junk);
    }
  });

  it('an instance that verifies nothing new still starts signing with a rotated-in key within a minute', async () => {
    // The keys as a reload reads them, seen by the test: the reload a tick starts is a query.
    const repository = signingKeyRepository(db, secrets);
    const reads: Promise<unknown>[] = [];
    const elsewhere = await ProductKeyRing.open({
      ...repository,
      all: () => {
        const read = repository.all();
        reads.push(read);
        return read;
      },
    });
    mock.timers.enable({ apis: ['setInterval'] });
    const stop = elsewhere.keepCurrent((error) => assert.fail(String(error)));
    try {
      const { activeKid } = await rotateSigningKey(signingKeyRepository(db, secrets), KEEP_EARLIER_KEYS);
      assert.notEqual(elsewhere.active.kid, activeKid);
      const readBefore = reads.length;
      mock.timers.tick(KEY_RING_RELOAD_SECONDS * 1000);
      assert.equal(reads.length, readBefore + 1, 'the tick started a reload');
      // The reload awaited the keys before this test did: it has taken them in once they are here.
      await reads.at(-1);
      assert.equal(elsewhere.active.kid, activeKid);
    } finally {
      stop();
      mock.timers.reset();
    }
  });

  it('shares keys between instances: one key set, and a rotated-in key is found by the others', async () => {
    const [a, b] = await Promise.all([
      ProductKeyRing.open(signingKeyRepository(db, secrets)),
      ProductKeyRing.open(signingKeyRepository(db, secrets)),
    ]);
    assert.deepEqual(a.publicJwks(), b.publicJwks());
    const rotated = await rotateSigningKey(signingKeyRepository(db, secrets), KEEP_EARLIER_KEYS);
    await a.reload();
    assert.equal(a.active.kid, rotated.activeKid);
    const issuedByA = new ProductTokens(a, {
      issuer: ISSUER,
      ttlSeconds: 600,
      sessionMaxAgeSeconds: 3600,
    }).issue(subject, session).token;
    // b looks for unknown keys at most once a second: a second later by its clock, it looks.
    mock.timers.enable({ apis: ['Date'], now: Date.now() + 1000 });
    try {
      const verifiedByB = await new ProductTokens(b, {
        issuer: ISSUER,
        ttlSeconds: 600,
        sessionMaxAgeSeconds: 3600,
      }).verify(issuedByA);
      assert.equal(verifiedByB.ok, true);
    } finally {
      mock.timers.reset();
    }
  });
});
