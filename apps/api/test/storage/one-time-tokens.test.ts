import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { INVITATION_LIFETIME_DAYS } from '@customer-core/contracts';
import { isConnectionLoss, oneTimeTokenHash } from '@customer-core/database';
import { testDatabaseKinds } from '@customer-core/database/testing';
import {
  countOf,
  race,
  racersOn,
  type ContractDatabase,
} from '@customer-core/database/testing/storage-contract';
import type { ApiDatabase, LinkPurpose } from '../../src/db/schema.js';
import { LINK_TOKEN_TTL_MINUTES, linkTokenRepository } from '../../src/email-links/link-token-repository.js';
import { invitationRepository } from '../../src/joining/invitation-repository.js';
import { exchangedIdTokenRepository } from '../../src/session/exchanged-id-token-repository.js';
import type { IdTokenUse } from '../../src/session/id-token-verifier.js';
import {
  LOOKUP_TOKEN_TTL_SECONDS,
  lookupTokenRepository,
} from '../../src/session/lookup-token-repository.js';
import { fromNow, identityOf, newBorrower, openApiStorage } from './support.js';

// The portal's one-time tokens, each used once however many uses race for it: e-mailed links, lookup
// tokens, exchanged ID tokens and invitations.

/** Seconds between two instants, rounded. */
const secondsBetween = (from: Date, to: Date) => Math.round((to.getTime() - from.getTime()) / 1000);

for (const kind of testDatabaseKinds()) {
  const racers = racersOn(kind);
  describe(`one-time tokens (${kind})`, () => {
    let database: ContractDatabase<ApiDatabase>;
    before(async () => {
      database = await openApiStorage(kind);
    });
    after(() => database?.close());

    describe('e-mailed link tokens', () => {
      let tokens: ReturnType<typeof linkTokenRepository>;
      before(() => {
        tokens = linkTokenRepository(database.db);
      });

      const issue = (
        idpUserId: string,
        purpose: LinkPurpose = 'magic_link',
        returnTo: string | null = null,
      ) => tokens.issue({ purpose, idpUserId, returnTo });

      it('issues a token kept only as its hash, living as long as its purpose allows', async () => {
        const user = randomUUID();
        for (const purpose of Object.keys(LINK_TOKEN_TTL_MINUTES) as LinkPurpose[]) {
          const issued = await tokens.issue({
            purpose,
            idpUserId: user,
            returnTo: null,
            newEmail: 'new@example.com',
          });
          assert.ok(issued.expiresAt instanceof Date);
          const row = await database.db
            .selectFrom('link_token')
            .selectAll()
            .where('id', '=', issued.id)
            .executeTakeFirstOrThrow();
          assert.equal(row.token_hash, oneTimeTokenHash(issued.token));
          assert.ok(!JSON.stringify(row).includes(issued.token), 'the token itself is not stored');
          assert.equal(secondsBetween(row.created_at, row.expires_at), LINK_TOKEN_TTL_MINUTES[purpose] * 60);
          assert.equal(await tokens.isUsable(purpose, issued.token), true);
        }
      });

      it('is consumed once; the user’s other links of that purpose go with it, of other purposes stay', async () => {
        const user = randomUUID();
        const used = await issue(user, 'magic_link', '/loans');
        const sibling = await issue(user, 'magic_link');
        const reset = await issue(user, 'password_reset');
        const stranger = await issue(randomUUID(), 'magic_link');

        assert.deepEqual(await tokens.consume('magic_link', used.token), {
          id: used.id,
          idpUserId: user,
          returnTo: '/loans',
          newEmail: null,
        });
        assert.equal(await tokens.consume('magic_link', used.token), undefined, 'used');
        assert.equal(await tokens.consume('magic_link', sibling.token), undefined, 'voided with it');
        assert.equal(await tokens.isUsable('password_reset', reset.token), true, 'another purpose');
        assert.equal(await tokens.isUsable('magic_link', stranger.token), true, 'another user');
        assert.equal(
          await tokens.consume('password_reset', stranger.token),
          undefined,
          'for its purpose only',
        );
        assert.equal(await tokens.consume('magic_link', 'never-issued'), undefined);
      });

      it('answers another owner’s link as a dead one and leaves it usable', async () => {
        const owner = randomUUID();
        const link = await issue(owner, 'email_change');
        assert.equal(await tokens.consume('email_change', link.token, randomUUID()), undefined);
        assert.equal((await tokens.consume('email_change', link.token, owner))?.idpUserId, owner);
      });

      it('refuses an expired link; a released one works again; voiding ends every unused one', async () => {
        const user = randomUUID();
        const expired = await issue(user);
        await database.db
          .updateTable('link_token')
          .set({ expires_at: fromNow(-1) })
          .where('id', '=', expired.id)
          .execute();
        assert.equal(await tokens.isUsable('magic_link', expired.token), false);
        assert.equal(await tokens.consume('magic_link', expired.token), undefined);

        const reset = await issue(user, 'password_reset');
        const consumed = await tokens.consume('password_reset', reset.token);
        assert.ok(consumed);
        await tokens.release(consumed.id);
        assert.equal((await tokens.consume('password_reset', reset.token))?.id, reset.id, 'given back');

        const a = await issue(user, 'password_reset');
        const b = await issue(user, 'magic_link');
        await tokens.voidAllOf(user);
        assert.equal(await tokens.isUsable('password_reset', a.token), false);
        assert.equal(await tokens.isUsable('magic_link', b.token), false);
      });

      it('issues nothing in a transaction that rolls back', async () => {
        let token = '';
        await assert.rejects(
          database.db.transaction().execute(async (trx) => {
            ({ token } = await tokens.issue(
              {
                purpose: 'magic_link',
                idpUserId: randomUUID(),
                returnTo: null,
              },
              trx,
            ));
            throw new Error('the e-mail could not be enqueued');
          }),
          /could not be enqueued/,
        );
        assert.equal(await tokens.isUsable('magic_link', token), false);
      });

      it(`${racers} links asked for at once for one borrower are all usable: asking voids none`, async () => {
        const user = randomUUID();
        const issued = await race(racers, (i) =>
          tokens.issue(
            {
              purpose: 'password_reset',
              idpUserId: user,
              returnTo: null,
            },
            i % 2 ? database.another() : database.db,
          ),
        );
        const usable = await Promise.all(issued.map((link) => tokens.isUsable('password_reset', link.token)));
        assert.equal(countOf(usable, true), racers);
      });

      it(`of ${racers} concurrent uses of one link, exactly one succeeds`, async () => {
        const link = await issue(randomUUID(), 'password_reset');
        const uses = await race(racers, () => tokens.consume('password_reset', link.token));
        assert.equal(uses.filter(Boolean).length, 1);
      });

      it(`of ${racers} concurrent uses of five links of one borrower, exactly one succeeds`, async () => {
        const user = randomUUID();
        const links: string[] = [];
        for (let i = 0; i < 5; i += 1) links.push((await issue(user)).token);
        const uses = await race(racers, (i) => tokens.consume('magic_link', links[i % links.length]!));
        assert.equal(uses.filter(Boolean).length, 1);
      });

      if (kind === 'postgres') {
        it('a use whose connection is lost changes nothing: the link still works', async () => {
          const user = randomUUID();
          const link = await issue(user);
          const other = await issue(user);
          // Holding one of the borrower's links makes the use wait, after its first statement.
          const error = await database.cutWhileWaiting(
            'select 1 from link_token where id = $1 for update',
            [other.id],
            () => tokens.consume('magic_link', link.token),
          );
          assert.equal(isConnectionLoss(error), true, String(error));
          assert.equal(await tokens.isUsable('magic_link', other.token), true, 'the others are not voided');
          assert.equal((await tokens.consume('magic_link', link.token))?.id, link.id);
        });
      }
    });

    describe('lookup tokens', () => {
      let tokens: ReturnType<typeof lookupTokenRepository>;
      let borrowerId: string;
      before(async () => {
        tokens = lookupTokenRepository(database.db);
        ({ id: borrowerId } = await newBorrower(database.db));
      });

      it('is exchanged once for its borrower, within five minutes; only its hash is kept', async () => {
        const { token, expiresAt } = await tokens.mint(borrowerId, 'crm');
        const row = await database.db
          .selectFrom('lookup_token')
          .selectAll()
          .where('token_hash', '=', oneTimeTokenHash(token))
          .executeTakeFirstOrThrow();
        assert.equal(row.minted_by, 'crm');
        assert.equal(secondsBetween(row.created_at, expiresAt), LOOKUP_TOKEN_TTL_SECONDS);
        assert.equal(await tokens.consume(token), borrowerId);
        assert.equal(await tokens.consume(token), undefined);
        assert.equal(await tokens.consume('never-minted'), undefined);
      });

      it('refuses an expired token', async () => {
        const { token } = await tokens.mint(borrowerId, 'crm');
        await database.db
          .updateTable('lookup_token')
          .set({ expires_at: fromNow(-1) })
          .where('token_hash', '=', oneTimeTokenHash(token))
          .execute();
        assert.equal(await tokens.consume(token), undefined);
      });

      it(`of ${racers} concurrent redemptions, exactly one succeeds`, async () => {
        const { token } = await tokens.mint(borrowerId, 'crm');
        const redeemed = await race(racers, () => tokens.consume(token));
        assert.deepEqual(redeemed.filter(Boolean), [borrowerId]);
      });

      if (kind === 'postgres') {
        it('a redemption whose connection is lost spends nothing', async () => {
          const { token } = await tokens.mint(borrowerId, 'crm');
          const error = await database.cutWhileWaiting(
            'select 1 from lookup_token where token_hash = $1 for update',
            [oneTimeTokenHash(token)],
            () => tokens.consume(token),
          );
          assert.equal(isConnectionLoss(error), true, String(error));
          assert.equal(await tokens.consume(token), borrowerId);
        });
      }
    });

    describe('exchanged ID tokens', () => {
      const use = (): IdTokenUse => ({
        hash: randomUUID(),
        issuedAt: Math.floor(Date.now() / 1000),
        acceptedUntil: Math.floor(Date.now() / 1000) + 300,
        sessionId: null,
        amr: null,
        authTime: null,
        groups: null,
      });

      /** The identity of a new borrower who has signed in before, its names as a new ID token says. */
      const signedInBefore = async () => {
        const borrower = await newBorrower(database.db);
        return {
          borrowerId: borrower.id,
          identity: identityOf(borrower, { firstName: 'Ada', lastName: 'Lovelace' }),
        };
      };
      const namesOf = (borrowerId: string) =>
        database.db
          .selectFrom('borrower')
          .select(['first_name', 'last_name'])
          .where('id', '=', borrowerId)
          .executeTakeFirstOrThrow();

      it('spends an ID token once, kept until it expires, with its known borrower’s profile', async () => {
        const spent = exchangedIdTokenRepository(database.db);
        const { borrowerId, identity } = await signedInBefore();
        const token = use();
        const first = await spent.spend(token, identity);
        assert.equal(first.kind, 'spent');
        assert.equal(first.kind === 'spent' && first.borrower?.id, borrowerId);
        assert.equal(
          first.kind === 'spent' && first.borrower?.firstName,
          'Ada',
          'the profile follows the token',
        );
        assert.deepEqual(await namesOf(borrowerId), { first_name: 'Ada', last_name: 'Lovelace' });
        // Used: and its profile is not written again.
        assert.deepEqual(await spent.spend(token, { ...identity, firstName: 'Augusta' }), { kind: 'used' });
        assert.deepEqual(await namesOf(borrowerId), { first_name: 'Ada', last_name: 'Lovelace' });
        assert.equal((await spent.spend(use(), identity)).kind, 'spent', 'another token');
        // An identity not signed in before: spent, no borrower yet.
        assert.deepEqual(await spent.spend(use(), { ...identity, subject: '00u-never-seen' }), {
          kind: 'spent',
        });
        const row = await database.db
          .selectFrom('exchanged_id_token')
          .select('expires_at')
          .where('token_hash', '=', token.hash)
          .executeTakeFirstOrThrow();
        assert.equal(row.expires_at.getTime(), token.acceptedUntil * 1000);
      });

      it('refuses an ID token issued before the borrower’s cut-off: not spent, no profile written', async () => {
        const spent = exchangedIdTokenRepository(database.db);
        const { borrowerId, identity } = await signedInBefore();
        await database.db
          .updateTable('borrower')
          .set({ id_tokens_not_before: new Date(Date.now() + 60_000) })
          .where('id', '=', borrowerId)
          .execute();
        const token = use();
        assert.deepEqual(await spent.spend(token, identity), { kind: 'revoked' });
        assert.deepEqual(await namesOf(borrowerId), { first_name: 'Dana', last_name: 'Demo' });
        await database.db
          .updateTable('borrower')
          .set({ id_tokens_not_before: null })
          .where('id', '=', borrowerId)
          .execute();
        assert.equal((await spent.spend(token, identity)).kind, 'spent', 'refused, not spent');
      });

      it(`of ${racers} concurrent exchanges of one ID token on two instances, exactly one gets it`, async () => {
        const instances = [
          exchangedIdTokenRepository(database.db),
          exchangedIdTokenRepository(database.another()),
        ];
        const { identity } = await signedInBefore();
        const token = use();
        const spent = await race(racers, (i) => instances[i % 2]!.spend(token, identity));
        assert.equal(
          countOf(
            spent.map((spending) => spending.kind),
            'spent',
          ),
          1,
        );
        assert.equal(
          countOf(
            spent.map((spending) => spending.kind),
            'used',
          ),
          racers - 1,
        );
      });
    });

    describe('invitations', () => {
      let invitations: ReturnType<typeof invitationRepository>;
      before(() => {
        invitations = invitationRepository(database.db);
      });

      const invite = (borrowerId: string, invitedBy = 'operator') =>
        database.db.transaction().execute((trx) => invitations.issue(trx, { borrowerId, invitedBy }));
      const usableOf = async (borrowerId: string) =>
        (
          await database.db
            .selectFrom('invitation')
            .select('id')
            .where('borrower_id', '=', borrowerId)
            .where('consumed_at', 'is', null)
            .execute()
        ).length;

      it('finds a usable invitation with its borrower, for as many days as invitations live', async () => {
        const borrower = await newBorrower(database.db, { linked: false });
        const issued = await invite(borrower.id);
        const found = await invitations.find(issued.token);
        assert.deepEqual(found, {
          borrowerId: borrower.id,
          email: borrower.email,
          firstName: 'Dana',
          lastName: 'Demo',
          linked: false,
          expiresAt: issued.expiresAt,
        });
        const { created_at } = await database.db
          .selectFrom('invitation')
          .select('created_at')
          .where('id', '=', issued.id)
          .executeTakeFirstOrThrow();
        assert.equal(secondsBetween(created_at, issued.expiresAt), INVITATION_LIFETIME_DAYS * 86_400);
        assert.equal(await invitations.find('never-issued'), undefined);
      });

      it('a new invitation replaces the unused one; each is consumed once', async () => {
        const borrower = await newBorrower(database.db, { linked: false });
        const first = await invite(borrower.id);
        const second = await invite(borrower.id);
        assert.equal(await invitations.find(first.token), undefined, 'replaced');
        assert.equal(await invitations.consume(first.token), undefined);
        assert.deepEqual(await invitations.consume(second.token), { id: second.id, borrowerId: borrower.id });
        assert.equal(await invitations.consume(second.token), undefined);
        assert.equal(await invitations.find(second.token), undefined);
      });

      it('a released invitation works again, unless a newer one was issued meanwhile; voiding ends it', async () => {
        const borrower = await newBorrower(database.db, { linked: false });
        const issued = await invite(borrower.id);
        const consumed = await invitations.consume(issued.token);
        await invitations.release(consumed!.id);
        assert.ok(await invitations.find(issued.token), 'given back');

        await invitations.consume(issued.token);
        const newer = await invite(borrower.id);
        await invitations.release(issued.id);
        assert.equal(await invitations.find(issued.token), undefined, 'the newer one is the one that works');
        assert.ok(await invitations.find(newer.token));

        await invitations.voidOf(borrower.id, database.db);
        assert.equal(await invitations.find(newer.token), undefined);
      });

      it('refuses an expired invitation', async () => {
        const borrower = await newBorrower(database.db, { linked: false });
        const issued = await invite(borrower.id);
        await database.db
          .updateTable('invitation')
          .set({ expires_at: fromNow(-1) })
          .where('id', '=', issued.id)
          .execute();
        assert.equal(await invitations.find(issued.token), undefined);
        assert.equal(await invitations.consume(issued.token), undefined);
      });

      it(`of ${racers} concurrent invitations of one borrower, exactly one is left usable`, async () => {
        const borrower = await newBorrower(database.db, { linked: false });
        const issued = await race(racers, (i) => invite(borrower.id, `operator-${i}`));
        assert.equal(await usableOf(borrower.id), 1);
        const found = await Promise.all(issued.map((invitation) => invitations.find(invitation.token)));
        assert.equal(found.filter(Boolean).length, 1);
      });

      it(`of ${racers} concurrent registrations with one invitation, exactly one consumes it`, async () => {
        const borrower = await newBorrower(database.db, { linked: false });
        const issued = await invite(borrower.id);
        const consumed = await race(racers, () => invitations.consume(issued.token));
        assert.equal(consumed.filter(Boolean).length, 1);
      });

      if (kind === 'postgres') {
        it('a registration whose connection is lost consumes nothing', async () => {
          const borrower = await newBorrower(database.db, { linked: false });
          const issued = await invite(borrower.id);
          const error = await database.cutWhileWaiting(
            'select 1 from invitation where id = $1 for update',
            [issued.id],
            () => invitations.consume(issued.token),
          );
          assert.equal(isConnectionLoss(error), true, String(error));
          assert.equal((await invitations.consume(issued.token))?.id, issued.id);
        });
      }

      it('reads the borrower as linked once they have an identity', async () => {
        const borrower = await newBorrower(database.db, { linked: true });
        const issued = await invite(borrower.id);
        assert.equal((await invitations.find(issued.token))?.linked, true);
      });
    });
  });
}
