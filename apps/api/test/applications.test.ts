import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import {
  applicationEndpoints,
  EMAIL_VERIFICATION_LIFETIME_HOURS,
  type EmailVerificationResponse,
  type StartApplicationInput,
  type StartApplicationResponse,
} from '@customer-core/contracts';
import { startTestServer, type TestServer } from '../testing/index.js';
import { linkTokenOf, MALFORMED_BODIES, postRaw, uniqueEmail, type ApiErrorBody } from './support/joining.js';
import { inbox, mailFor, clientAddresses } from './support/links.js';
import { json, post } from './support/session.js';

const PER_ADDRESS = 3;
const PER_CLIENT = 8;

/** A client address no other request has used (the server trusts X-Forwarded-For here). */
const newClient = clientAddresses();

const application = (overrides: Partial<Record<keyof StartApplicationInput, unknown>> = {}) => ({
  businessName: 'Hopper Compilers LLC',
  contactName: 'Grace Hopper',
  email: uniqueEmail('applicant'),
  amountRequested: 250_000,
  purpose: 'equipment',
  ...overrides,
});

describe('loan applications and e-mail verification', () => {
  let server: TestServer;
  let url: string;

  before(async () => {
    server = await startTestServer('pglite', {
      TRUST_PROXY: 'true',
      EMAIL_LINK_LIMIT_PER_ADDRESS_AND_CLIENT: String(PER_ADDRESS),
      EMAIL_LINK_FLOOD_LIMIT_PER_ADDRESS: String(PER_ADDRESS),
      EMAIL_LINK_LIMIT_PER_CLIENT: String(PER_CLIENT),
    });
    url = server.baseUrl;
  });
  after(() => server?.close());

  const start = (body: unknown, client = newClient()) =>
    post(url, applicationEndpoints.start.path, body, { 'x-forwarded-for': client });
  const verify = (token: unknown) => post(url, applicationEndpoints.verifyEmail.path, { token });
  const applicationsFor = (email: string) =>
    server.server.db.selectFrom('loan_application').selectAll().where('email', '=', email).execute();

  /** Starts an application and reads the verification link's token from the e-mail. */
  const started = async (body = application()) => {
    const response = await start(body);
    const answer = await json<StartApplicationResponse>(response);
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    const [message] = await mailFor(url, answer.body.email);
    return { ...answer.body, message: message!, token: linkTokenOf(message!, '/app/email-verification/') };
  };
  const expectInvalidLink = async (response: Response, what: string) => {
    assert.equal(response.status, 400, what);
    assert.deepEqual(
      await response.json(),
      {
        error: 'invalid_link',
        message:
          'This verification link is invalid or has expired. Start your application again to get a new one.',
      },
      what,
    );
  };

  it('says what is wrong with each field', async () => {
    const cases: Array<[Partial<Record<keyof StartApplicationInput, unknown>>, string]> = [
      [{ businessName: '' }, 'businessName: Business name is required.'],
      [{ businessName: '   ' }, 'businessName: Business name is required.'],
      [{ businessName: 'B'.repeat(201) }, 'businessName: Business name must be at most 200 characters.'],
      [{ contactName: '' }, 'contactName: Your name is required.'],
      [{ contactName: 'C'.repeat(121) }, 'contactName: Your name must be at most 120 characters.'],
      [{ email: '' }, 'email: Email is required.'],
      [{ email: 'grace@' }, 'email: Invalid email address.'],
      [{ amountRequested: '250000' }, 'amountRequested: Enter the amount you need.'],
      [{ amountRequested: undefined }, 'amountRequested: Enter the amount you need.'],
      [{ amountRequested: 25_000.5 }, 'amountRequested: Enter a whole dollar amount.'],
      [{ amountRequested: 4_999 }, 'amountRequested: The smallest loan is $5,000.'],
      [{ amountRequested: 5_000_001 }, 'amountRequested: The largest loan is $5,000,000.'],
      [{ purpose: 'yacht' }, 'purpose: Choose what the loan is for.'],
      [{ purpose: undefined }, 'purpose: Choose what the loan is for.'],
    ];
    for (const [overrides, message] of cases) {
      const body = application(overrides);
      const { status, body: answer } = await json<ApiErrorBody>(await start(body));
      assert.equal(status, 400, JSON.stringify(overrides));
      assert.deepEqual(answer, { error: 'bad_request', message }, JSON.stringify(overrides));
    }
    const { count } = await server.server.db
      .selectFrom('loan_application')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(count), 0, 'nothing was stored');
  });

  it('stores the application and e-mails a verification link; only a POST verifies', async () => {
    const email = uniqueEmail('Applicant');
    const before = Date.now();
    const {
      applicationId,
      email: sentTo,
      message,
      token,
    } = await started(
      application({ email: `  ${email.toUpperCase()} `, businessName: '  Hopper Compilers LLC ' }),
    );
    assert.equal(sentTo, email.toLowerCase(), 'the address as normalised');
    const [stored] = await applicationsFor(sentTo);
    assert.equal(stored?.id, applicationId);
    assert.equal(stored.business_name, 'Hopper Compilers LLC');
    assert.equal(stored.contact_name, 'Grace Hopper');
    assert.equal(stored.amount_requested, 250_000);
    assert.equal(stored.purpose, 'equipment');
    assert.equal(stored.email_verified_at, null);
    assert.notEqual(stored.verification_token_hash, token, 'only the hash is stored');
    const lifetime = stored.verification_expires_at!.getTime() - before;
    assert.ok(Math.abs(lifetime - EMAIL_VERIFICATION_LIFETIME_HOURS * 3600_000) < 60_000);

    assert.equal(message.subject, 'Confirm your email address for your Main Street Funding loan application');
    assert.ok(message.links.includes(`${url}/app/email-verification/${token}`));
    assert.match(message.text, /^Confirm your email address\n\nHello,\n\n/);
    assert.match(message.text, /The link expires in 3 days\./);
    assert.match(message.text, /Didn’t start an application\?/);
    assert.ok(!message.text.includes('Hopper'), 'nothing the applicant typed is in the message');

    // Neither a GET of the API path nor of the e-mailed page verifies.
    const get = await fetch(
      `${url}${applicationEndpoints.verifyEmail.path}?token=${encodeURIComponent(token)}`,
    );
    assert.ok([404, 405].includes(get.status), `GET answered ${get.status}`);
    await fetch(`${url}/app/email-verification/${token}`);
    assert.equal((await applicationsFor(sentTo))[0]?.email_verified_at, null, 'not verified by a GET');

    const first = await verify(token);
    assert.equal(first.headers.get('cache-control'), 'no-store');
    assert.deepEqual(await json<EmailVerificationResponse>(first), {
      status: 200,
      body: { email: sentTo, businessName: 'Hopper Compilers LLC', alreadyVerified: false },
    });
    assert.ok((await applicationsFor(sentTo))[0]?.email_verified_at instanceof Date);

    // Opening the link again is still a success.
    assert.deepEqual(await json(await verify(token)), {
      status: 200,
      body: { email: sentTo, businessName: 'Hopper Compilers LLC', alreadyVerified: true },
    });
  });

  it('refuses unknown and expired links', async () => {
    await expectInvalidLink(await verify(randomBytes(32).toString('base64url')), 'an unknown token');

    const { applicationId, token } = await started();
    await server.server.db
      .updateTable('loan_application')
      .set({ verification_expires_at: sql<Date>`now() - interval '1 minute'` })
      .where('id', '=', applicationId)
      .execute();
    await expectInvalidLink(await verify(token), 'an expired token');
    const [stored] = await server.server.db
      .selectFrom('loan_application')
      .select('email_verified_at')
      .where('id', '=', applicationId)
      .execute();
    assert.equal(stored?.email_verified_at, null);
  });

  it('limits applications per e-mail address and per client address, and says so', async () => {
    const email = uniqueEmail('limited');
    for (let i = 0; i < PER_ADDRESS; i += 1) {
      assert.equal((await start(application({ email }))).status, 201, `application ${i + 1}`);
    }
    const refused = await start(application({ email }));
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '900');
    assert.deepEqual(await refused.json(), {
      error: 'too_many_requests',
      message:
        "We've received several applications from you in a short time. Please try again in 15 minutes, or call Main Street Funding at (800) 555-0142.",
    });
    assert.equal((await applicationsFor(email)).length, PER_ADDRESS, 'the refused one was not stored');
    await mailFor(url, email, PER_ADDRESS);
    assert.equal((await inbox(url, email)).length, PER_ADDRESS, 'and not e-mailed');

    const client = newClient();
    for (let i = 0; i < PER_CLIENT; i += 1) {
      assert.equal((await start(application(), client)).status, 201, `client's application ${i + 1}`);
    }
    assert.equal((await start(application(), client)).status, 429);
    assert.equal((await start(application())).status, 201, 'another client is not limited');

    // Counted apart from the sign-in and reset links of the same address.
    const buckets = await server.server.db.selectFrom('link_request_count').select('bucket').execute();
    assert.ok(buckets.length > 0 && buckets.every(({ bucket }) => bucket.startsWith('application:')));
  });

  it('answers bad input with 400 and a message, never a 5xx', async () => {
    for (const token of [undefined, null, 42, '', 'x'.repeat(513), ['token'], { token: 'x' }]) {
      const { status, body } = await json<ApiErrorBody>(await verify(token));
      assert.equal(status, 400, JSON.stringify(token));
      assert.equal(body.error, 'bad_request');
      assert.match(body.message, /^token/);
    }
    for (const path of [applicationEndpoints.start.path, applicationEndpoints.verifyEmail.path]) {
      for (const { what, body, contentType } of MALFORMED_BODIES) {
        const response = await postRaw(url, path, body, contentType);
        assert.ok(response.status >= 400 && response.status < 500, `${path}, ${what}: ${response.status}`);
        const answer = (await response.json()) as ApiErrorBody;
        assert.ok(answer.error && answer.message, `${path}, ${what}: a message`);
      }
    }
  });
});
