import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { Secret } from 'otpauth';
import { routes } from '@customer-core/contracts';
import { authenticatorCode, captureBothSizes } from './support/second-factor.js';
import { collectPageErrors, focusReturnsTo } from './support/browser.js';
import { borrowerLoan, readToTheEnd, signAll } from './support/loans.js';
import {
  DEMO,
  makeSessionStale,
  openPortal,
  type Portal,
  readPortalStorage,
  submitSignIn,
} from './support/portal.js';

const SECRET = new Secret({ size: 20 }).base32;
const codeFor = (stepsAhead: number) => authenticatorCode(SECRET, stepsAhead);
const authTimeOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { auth_time: number })
    .auth_time;

describe('step-up before signing a loan document (browser)', () => {
  let portal: Portal;
  let loanId: string;
  before(async () => {
    portal = await openPortal();
    const { db } = portal.server.server;
    loanId = (
      await db.selectFrom('loan').select('id').where('reference', '=', 'LN-DEMO-1').executeTakeFirstOrThrow()
    ).id;
    // The demo borrower has an authenticator app (as enrolled from their account).
    const user = await portal.server.server.identityProvider!.users.findByLogin(DEMO.email);
    assert.ok(user);
    await (db as unknown as Kysely<{ idp_factor: Record<string, unknown> }>)
      .insertInto('idp_factor')
      .values({
        id: 'ufstepupbrowser00001',
        user_id: user.id,
        factor_type: 'token:software:totp',
        provider: 'GOOGLE',
        status: 'ACTIVE',
        secret: SECRET,
      })
      .execute();
  });
  after(() => portal?.close());

  it('a stale session signs all after the password and a code, in a dialog, keeping the signature typed', async () => {
    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    await page.goto(routes.signIn.path);
    await submitSignIn(page, DEMO.email, DEMO.password);
    await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
    await page.getByLabel('6-digit code').fill(codeFor(0));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((url) => url.pathname === routes.dashboard.path, { timeout: 20_000 });

    // The session is now older than the step-up allows, by its own auth_time.
    const stale = await makeSessionStale(page, portal.server);

    await page.goto(routes.loanCheckout.href({ loanId }));
    await page.getByRole('heading', { name: 'Review and sign your documents' }).waitFor();
    for (const doc of (await borrowerLoan(page, loanId)).documents) await readToTheEnd(page, doc.title);
    const form = page.getByTestId('sign-all-form');
    const name = form.getByLabel('Your full name');
    const agree = form.getByRole('checkbox', { name: 'I have read and agree to these documents' });
    const sign = form.getByRole('button', { name: 'Sign all' });
    await signAll(page, `${DEMO.firstName} ${DEMO.lastName}`);

    const dialog = page.getByRole('dialog', { name: 'Confirm it\u2019s you' });
    await dialog.waitFor();
    await page.waitForFunction(() => document.activeElement?.id === 'step-up-password');
    await captureBothSizes(page, 'signing-step-up-password');

    // Escape closes it; the focus goes back to the signature, and what was typed stays.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await focusReturnsTo(sign);
    assert.equal(await name.inputValue(), `${DEMO.firstName} ${DEMO.lastName}`);
    assert.equal(await agree.isChecked(), true);
    assert.ok((await borrowerLoan(page, loanId)).documents.every((d) => d.state !== 'signed'));

    await sign.click();
    await dialog.waitFor();
    await dialog.getByLabel('Password', { exact: true }).fill(DEMO.password);
    await dialog.getByRole('button', { name: 'Confirm and sign' }).click();
    await dialog.getByRole('heading', { name: 'Enter your code' }).waitFor();
    await captureBothSizes(page, 'signing-step-up-code');
    // The next step's code: the one of the sign-in is spent.
    await dialog.getByLabel('6-digit code').fill(codeFor(1));
    await dialog.getByRole('button', { name: 'Verify' }).click();

    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('checkout-complete').waitFor();
    assert.equal(new URL(page.url()).pathname, routes.loanCheckout.href({ loanId }));
    const renewed = (await readPortalStorage(page)).token;
    assert.ok(renewed && renewed !== stale);
    assert.ok(authTimeOf(renewed) > authTimeOf(stale));
    assert.deepEqual(errors, []);
  });
});
