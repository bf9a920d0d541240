import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { routes } from '@customer-core/contracts';
import { collectPageErrors } from './support/browser.js';
import { requestLink } from './support/getting-back-in.js';
import { linkPath, waitForMail } from './support/mailbox.js';
import { openPortal, type Portal } from './support/portal.js';
import { authenticatorCode, captureBothSizes } from './support/second-factor.js';

// A sign-in link for a borrower with an authenticator app: the link proves the mailbox, the app's
// code is asked next on the link's page, and only then is the borrower signed in.

const BORROWER = { email: 'link.factor@example.com', password: 'Borrower-Pass-42' };

describe('a sign-in link, then the second factor (browser)', () => {
  let portal: Portal;
  let secret = '';
  before(async () => {
    portal = await openPortal({ MFA_POLICY: 'optional' });
    const idp = portal.server.server.identityProvider!;
    const user = await idp.users.create({
      login: BORROWER.email,
      password: BORROWER.password,
      firstName: 'Lin',
      lastName: 'Factor',
    });
    const enrolled = await idp.factors.enrolTotp(user.id);
    assert.equal(enrolled.kind, 'enrolled');
    if (enrolled.kind !== 'enrolled') return;
    secret = enrolled.factor.secret!;
    const activated = await idp.factors.activate(user.id, enrolled.factor.id, authenticatorCode(secret));
    assert.equal(activated.kind, 'activated');
  });
  after(() => portal?.close());

  it('asks for the app’s code after the link, and signs in only with it', async () => {
    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    await requestLink(page, routes.magicLink.path, BORROWER.email, 'Send sign-in link');
    const mail = await waitForMail(portal.baseUrl, BORROWER.email);

    await page.goto(linkPath(mail, '/auth/magic-link-landing/'));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
    await captureBothSizes(page, 'magic-link-factor');

    // The activation took this time step: the next one is the app's next code.
    await page.getByLabel('6-digit code').fill(authenticatorCode(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((url) => url.pathname === routes.dashboard.path, { timeout: 20_000 });
    assert.deepEqual(errors, []);
  });
});
