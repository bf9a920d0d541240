import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { testDatabaseKinds } from '@customer-core/database/testing';
import type { ContractDatabase } from '@customer-core/database/testing/storage-contract';
import { consoleSessionRepository } from '../../src/console/console-session-repository.js';
import type { ApiDatabase } from '../../src/db/schema.js';
import { fromNow, openApiStorage } from './support.js';

// The staff console's sessions: short, ended by sign-out or a change of role, never found after.

for (const kind of testDatabaseKinds()) {
  describe(`console sessions (${kind})`, () => {
    let database: ContractDatabase<ApiDatabase>;
    before(async () => {
      database = await openApiStorage(kind);
    });
    after(() => database?.close());

    const begin = (subject: string, expiresAt = new Date(Date.now() + 60_000)) =>
      consoleSessionRepository(database.db).begin({
        id: randomUUID(),
        issuer: 'https://idp.example',
        subject,
        email: `${subject}@lender.example`,
        name: 'Sam Okafor',
        role: 'support',
        expiresAt,
        clientAddress: '203.0.113.7',
      });

    it('finds a session while it lasts, on another connection too; not after sign-out or expiry', async () => {
      const sessions = consoleSessionRepository(database.db);
      const elsewhere = consoleSessionRepository(database.another());
      const session = await begin('agent-1');
      assert.equal((await elsewhere.findActive(session.id))?.role, 'support');
      assert.equal(await sessions.end(session.id), true);
      assert.equal(await sessions.end(session.id), false, 'ended once');
      assert.equal(await elsewhere.findActive(session.id), undefined);

      const expired = await begin('agent-2');
      await database.db
        .updateTable('console_session')
        .set({ expires_at: fromNow(-1) })
        .where('id', '=', expired.id)
        .execute();
      assert.equal(await sessions.findActive(expired.id), undefined);
      assert.equal(await sessions.findActive('not-a-uuid'), undefined);
    });

    it('ends every session of one staff member, and no one else’s', async () => {
      const sessions = consoleSessionRepository(database.db);
      const [a, b, other] = [await begin('agent-3'), await begin('agent-3'), await begin('agent-4')];
      assert.equal(await sessions.endAllOf('https://idp.example', 'agent-3'), 2);
      assert.equal(await sessions.findActive(a.id), undefined);
      assert.equal(await sessions.findActive(b.id), undefined);
      assert.equal((await sessions.findActive(other.id))?.subject, 'agent-4');
    });
  });
}
