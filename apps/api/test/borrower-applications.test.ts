import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  applicationEndpoints,
  BorrowerApplicationListSchema,
  BorrowerApplicationSchema,
} from '@customer-core/contracts';
import { startTestServer, type TestServer } from '../testing/index.js';
import { uniqueEmail } from './support/joining.js';
import { call, newBorrowerToken } from './support/loans.js';

// Applying while signed in: the account's name and address, nothing to verify, and the application
// on the borrower's list (with one they sent signed out from that address and verified).

const PER_ADDRESS = 3;

describe('applying for a loan while signed in', () => {
  let server: TestServer;
  let url: string;
  before(async () => {
    server = await startTestServer('pglite', {
      EMAIL_LINK_LIMIT_PER_ADDRESS_AND_CLIENT: String(PER_ADDRESS),
      EMAIL_LINK_FLOOD_LIMIT_PER_ADDRESS: String(PER_ADDRESS),
    });
    url = server.baseUrl;
  });
  after(() => server?.close());

  const submit = (token: string | undefined, body: unknown) =>
    call(url, 'POST', applicationEndpoints.submitAsBorrower.path, token, body);
  const list = (token: string | undefined) =>
    call(url, 'GET', applicationEndpoints.borrowerApplications.path, token);
  const business = { businessName: 'Other Ventures', amountRequested: 120_000, purpose: 'working_capital' };

  it("takes the account's name and address, whatever the request says, and sends no link", async () => {
    const email = uniqueEmail('signed.in');
    const token = await newBorrowerToken(server, email);
    const sent = await submit(token, {
      ...business,
      // Not the request's to say: stripped, the account's are used.
      email: 'someone.else@example.com',
      contactName: 'Someone Else',
    });
    assert.equal(sent.status, 201, JSON.stringify(sent.body));
    const application = BorrowerApplicationSchema.parse(sent.body);
    assert.deepEqual(
      { ...application, id: undefined, submittedAt: undefined },
      { ...business, id: undefined, submittedAt: undefined, state: 'received' },
    );
    const stored = await server.server.db
      .selectFrom('loan_application')
      .selectAll()
      .where('id', '=', application.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual([stored.email, stored.contact_name], [email, 'Otto Other']);
    assert.ok(stored.email_verified_at);
    // Nothing queued to send (the outbox, not the mailbox, which delivery fills later).
    const queued = await server.server.db
      .selectFrom('mail_outbox')
      .select('recipient')
      .where('recipient', 'in', [email, 'someone.else@example.com'])
      .execute();
    assert.deepEqual(queued, [], 'no link to verify');

    const listed = BorrowerApplicationListSchema.parse((await list(token)).body).applications;
    assert.deepEqual(listed, [application]);
  });

  it('refuses without a session, and a bad body with what is wrong', async () => {
    assert.equal((await submit(undefined, business)).status, 401);
    assert.equal((await list(undefined)).status, 401);
    const token = await newBorrowerToken(server, uniqueEmail('bad.body'));
    const refused = await submit(token, { ...business, amountRequested: 10 });
    assert.equal(refused.status, 400);
    assert.match(String(refused.body.message), /amountRequested: The smallest loan is \$5,000\./);
    assert.deepEqual(BorrowerApplicationListSchema.parse((await list(token)).body).applications, []);
  });

  it('limits applications per address as the signed-out start does', async () => {
    const token = await newBorrowerToken(server, uniqueEmail('many'));
    for (let i = 0; i < PER_ADDRESS; i++) assert.equal((await submit(token, business)).status, 201);
    const limited = await submit(token, business);
    assert.equal(limited.status, 429);
    assert.match(String(limited.body.message), /several applications from you in a short time/);
    assert.equal(
      BorrowerApplicationListSchema.parse((await list(token)).body).applications.length,
      PER_ADDRESS,
    );
  });
});
