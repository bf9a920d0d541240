import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import {
  CONSOLE_SESSION_STORAGE_KEY,
  consoleEndpoints,
  loanEndpoints,
  operatorEndpoints,
  routes,
  consoleRoutes,
  type ConsoleSession,
} from '@customer-core/contracts';
import { mintSession, STAFF_PASSWORD, staffIdToken } from '@customer-core/api/testing';
import type { Page } from 'playwright-core';
import { assertAccessible } from './support/accessibility.js';
import { collectPageErrors, DESKTOP, PHONE } from './support/browser.js';
import { waitForMail } from './support/mailbox.js';
import { authenticatorCode, captureBothSizes } from './support/second-factor.js';
import { DEMO, openPortal, type Portal } from './support/portal.js';

// The lender's staff at the console: a support agent (with a second factor, set up at the first
// sign-in) finds a borrower, sees their sessions, activity and e-mail, ends a session, resets their
// second factors with a reason and resends an invitation; support cannot add a loan. An admin then
// finds each of those actions in the audit trail with its actor and reason, and the chain's check
// finds a record edited in the database.

const OPERATOR_SECRET = 'operator-secret-for-console-tests-0123456789';
const SUPPORT = { email: 'sam.okafor@lender.example', firstName: 'Sam', lastName: 'Okafor' };
const ADMIN = { email: 'ana.ruiz@lender.example', firstName: 'Ana', lastName: 'Ruiz' };
const INVITED = 'ines.vega@example.com';
const END_REASON = 'Caller lost their laptop, ticket 5120';
const RESET_REASON = 'Lost phone; caller verified by loan number, ticket 5121';

describe('the staff console (browser)', () => {
  let portal: Portal;
  let borrowerToken: string;

  before(async () => {
    portal = await openPortal({ SERVICE_CREDENTIALS: `operator:operator:${OPERATOR_SECRET}` });
    const idp = portal.server.server.identityProvider!;
    for (const [staff, role] of [
      [SUPPORT, 'support'],
      [ADMIN, 'admin'],
    ] as const)
      await idp.users.create({ login: staff.email, password: STAFF_PASSWORD, ...staff, groups: [role] });
    // The demo borrower is signed in somewhere and has an authenticator app; Ines is invited.
    borrowerToken = (await mintSession(portal.server, DEMO.email)).accessToken;
    const demo = (await idp.users.findByLogin(DEMO.email))!;
    const enrolled = await idp.factors.enrolTotp(demo.id);
    assert.ok(enrolled.kind === 'enrolled');
    const code = new TOTP({ secret: Secret.fromBase32(enrolled.factor.secret!), digits: 6, period: 30 });
    assert.equal(
      (await idp.factors.activate(demo.id, enrolled.factor.id, code.generate())).kind,
      'activated',
    );
    const invited = await api('POST', operatorEndpoints.invitations.path, OPERATOR_SECRET, {
      email: INVITED,
      firstName: 'Ines',
      lastName: 'Vega',
    });
    assert.equal(invited.status, 201);
  });
  after(() => portal?.close());

  const api = (method: 'GET' | 'POST', path: string, token: string, body?: unknown) =>
    fetch(`${portal.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  /** A staff member's first sign-in: password, then the authenticator app the console sets up. */
  async function signInAsStaff(page: Page, email: string) {
    await page.goto(routes.console.path);
    await page.waitForURL((url) => url.pathname === consoleRoutes.signIn.path);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(STAFF_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Set up two-step verification' }).waitFor();
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const secret = (await page.getByTestId('factor-secret').innerText()).replace(/\s/g, '');
    await captureBothSizes(page, 'console-sign-in-factor');
    await page.getByLabel('6-digit code').fill(authenticatorCode(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL((url) => url.pathname === consoleRoutes.borrowers.path, { timeout: 20_000 });
  }

  /** The console token the page holds (sessionStorage), as a script on the page could read it. */
  const consoleTokenOf = async (page: Page) =>
    (
      JSON.parse(
        (await page.evaluate((key) => sessionStorage.getItem(key), CONSOLE_SESSION_STORAGE_KEY)) ?? '{}',
      ) as { accessToken: string }
    ).accessToken;

  async function openBorrower(page: Page, search: string, name: string) {
    await page.getByLabel('Search borrowers').fill(search);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByTestId('borrower-results-table').getByRole('link', { name }).click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
  }

  it('lets a support agent find a borrower and help them, and nothing more', async () => {
    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    await signInAsStaff(page, SUPPORT.email);
    assert.equal(await page.getByTestId('console-staff-member').innerText(), 'Sam Okafor\nSupport agent');
    // Only the borrowers are support's: no loans, audit trail, webhooks or staff in the navigation.
    const nav = page.getByRole('navigation', { name: 'Staff console' });
    assert.deepEqual(await nav.getByRole('link').allInnerTexts(), ['Borrowers']);

    await openBorrower(page, 'Dana', 'Dana Demo');
    // Their sessions, security activity and the e-mail sent to them, with its delivery.
    const sessions = page.getByTestId('sessions-table');
    assert.equal(await sessions.getByTestId('end-session').count(), 1);
    await page.getByRole('heading', { name: 'Security activity' }).waitFor();
    await page.getByRole('heading', { name: 'Email sent' }).waitFor();
    await captureBothSizes(page, 'console-borrower');
    // At a phone's width the wide tables scroll within their card, and the page not at all.
    await page.setViewportSize(PHONE);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), PHONE.width);
    await page.setViewportSize(DESKTOP);

    // End the session, with a reason: the borrower's token is over at once.
    await sessions.getByTestId('end-session').click();
    const endDialog = page.getByTestId('end-session-dialog');
    await endDialog.getByLabel('Reason (optional)').fill(END_REASON);
    await endDialog.getByRole('button', { name: 'End session' }).click();
    await page.getByText('The session is ended.').waitFor();
    assert.equal((await api('GET', loanEndpoints.loans.path, borrowerToken)).status, 401);

    // Reset the second factors: not without a reason typed; the borrower is e-mailed.
    await page.getByTestId('borrower-action-reset-factors').click();
    const resetDialog = page.getByTestId('borrower-dialog-reset-factors');
    await resetDialog.getByRole('button', { name: 'Reset second factors' }).click();
    await resetDialog.getByText('Give a reason', { exact: false }).waitFor();
    await captureBothSizes(page, 'console-reset-factors-reason');
    await resetDialog.getByLabel('Reason', { exact: true }).fill(RESET_REASON);
    await resetDialog.getByRole('button', { name: 'Reset second factors' }).click();
    await page.getByText('1 second factor removed', { exact: false }).waitFor();
    const mail = page.getByTestId('mail-table');
    await mail.getByText('Second factors reset by staff').first().waitFor();

    // An invitation lost in a spam folder: sent again, with a new link.
    await page.goto(consoleRoutes.borrowers.path);
    await openBorrower(page, 'ines', 'Ines Vega');
    await page.getByTestId('borrower-action-resend').click();
    await page
      .getByTestId('borrower-dialog-resend')
      .getByRole('button', { name: 'Resend invitation' })
      .click();
    await page.getByText(`Invitation sent again to ${INVITED}`, { exact: false }).waitFor();
    await waitForMail(portal.baseUrl, INVITED, 2);

    // A loan officer's work is not support's: not offered, not open, and refused by the API.
    await page.goto(consoleRoutes.loans.path);
    await page.getByRole('heading', { name: 'Not open to your role' }).waitFor();
    const staffToken = await consoleTokenOf(page);
    const loan = {
      borrowerEmail: DEMO.email,
      reference: 'LN-SUPPORT-1',
      product: 'Term loan',
      amountCents: 100_000,
      balanceCents: 100_000,
      status: 'ACTIVE',
      nextPayment: null,
    };
    assert.equal((await api('POST', operatorEndpoints.loans.path, staffToken, loan)).status, 403);

    // The two populations apart: a staff token at the borrower's API, a borrower's at the console's.
    assert.equal((await api('GET', loanEndpoints.loans.path, staffToken)).status, 403);
    const borrowerAgain = (await mintSession(portal.server, DEMO.email)).accessToken;
    for (const path of [consoleEndpoints.me.path, operatorEndpoints.borrowers.path])
      assert.equal((await api('GET', path, borrowerAgain)).status, 403, path);
    assert.deepEqual(errors, []);
  });

  it('shows an admin each action in the audit trail with its actor and reason, and finds a record edited', async () => {
    // Signed in as the console would be (its sign-in is the support agent's test above): the ID token
    // of the admin's sign-in exchanged over HTTP, and the session put where the console keeps it.
    const { page } = await portal.newPage();
    const idToken = await staffIdToken(portal.server, ADMIN.email);
    const session = (await (
      await fetch(`${portal.baseUrl}${consoleEndpoints.signIn.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ idToken }),
      })
    ).json()) as ConsoleSession;
    await page.goto('/healthz');
    await page.evaluate(
      ([key, value]) => sessionStorage.setItem(key!, value!),
      [CONSOLE_SESSION_STORAGE_KEY, JSON.stringify(session)],
    );
    await page.goto(consoleRoutes.borrowers.path);
    await page
      .getByRole('navigation', { name: 'Staff console' })
      .getByRole('link', { name: 'Audit trail' })
      .click();
    await page.getByLabel('Actor').fill(`staff:${SUPPORT.email}`);
    await page.getByRole('button', { name: 'Show records' }).click();
    const table = page.getByTestId('audit-table');
    const rowOf = (action: string) => table.getByRole('row').filter({ hasText: action });
    await rowOf(END_REASON).waitFor();
    assert.match(await rowOf(END_REASON).innerText(), /POST \/api\/operator\/sessions\/:sessionId\/end/);
    assert.match(await rowOf(RESET_REASON).innerText(), /reset-second-factors/);
    assert.equal(await rowOf('/api/operator/invitations/resend').count(), 1);
    assert.match(await rowOf('POST /api/operator/loans').innerText(), /403/);
    await captureBothSizes(page, 'console-audit');

    await page.getByTestId('audit-verify').click();
    await page.getByTestId('audit-verification').getByText('The chain is intact', { exact: false }).waitFor();

    // A record changed behind the portal's back (its trigger set aside by the tables' owner).
    const { db } = portal.server.server;
    await sql`alter table audit_record disable trigger audit_record_append_only`.execute(db);
    const edited = await sql<{ seq: string }>`
      update audit_record set entry = replace(entry, ${RESET_REASON}, 'nothing to see')
      where entry like ${`%${RESET_REASON}%`} returning seq`.execute(db);
    assert.equal(edited.rows.length, 1);
    await sql`alter table audit_record enable trigger audit_record_append_only`.execute(db);
    await page.getByTestId('audit-verify').click();
    await page
      .getByTestId('audit-verification')
      .getByText(`The chain breaks at record #${edited.rows[0]!.seq}`, { exact: false })
      .waitFor();
    await assertAccessible(page, 'console audit trail, chain broken');
    // A legal hold from the borrower's page: its reason (required) shown beside it afterwards.
    await page.goto(consoleRoutes.borrowers.path);
    await openBorrower(page, 'Dana', 'Dana Demo');
    await page.getByTestId('borrower-action-hold-on').click();
    const hold = page.getByTestId('borrower-dialog-hold-on');
    await hold.getByLabel('Reason', { exact: true }).fill('Litigation hold, matter 2026-114');
    await hold.getByRole('button', { name: 'Put on legal hold' }).click();
    await page
      .getByTestId('borrower-legal-hold-reason')
      .getByText('Litigation hold, matter 2026-114')
      .waitFor();
    await captureBothSizes(page, 'console-borrower-legal-hold');
  });
});
