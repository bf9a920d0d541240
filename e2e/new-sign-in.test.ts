import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { collectPageErrors } from './support/browser.js';
import { linkPath, waitForMail } from './support/mailbox.js';
import { DEMO, openPortal, signInAsDemo, type Portal } from './support/portal.js';
import { captureBothSizes } from './support/second-factor.js';
import { expectSignedOut } from './support/session.js';

// "New sign-in to your account": each browser context is a device of the demo borrower. The first one
// is remembered quietly; a sign-in from a second is e-mailed, and its "This wasn't me" link signs every
// device out and leads to a new password.

describe('new-sign-in e-mails (browser)', () => {
  let portal: Portal;
  before(async () => {
    portal = await openPortal({ NEW_SIGN_IN_EMAILS: 'true' });
  });
  after(() => portal?.close());

  it('a sign-in from a new device is e-mailed; "This wasn\'t me" signs every device out', async () => {
    const { page: laptop } = await portal.newPage();
    const { page: phone } = await portal.newPage();
    const errors = collectPageErrors(laptop);
    await signInAsDemo(laptop);
    // The device id is out of the page's reach.
    assert.doesNotMatch(await laptop.evaluate(() => document.cookie), /cc_device/);
    await signInAsDemo(phone);

    const notice = await waitForMail(portal.baseUrl, DEMO.email);
    assert.equal(notice.subject, 'New sign-in to your Main Street Funding account');
    assert.match(notice.text, /Device: Chrom(e|ium) on Linux/);
    assert.match(notice.text, /Approximate network: 127\.0\.0\.0\/24/);

    // The borrower opens the link where they read their mail: a third device.
    const { page: mail } = await portal.newPage();
    await mail.goto(linkPath(notice, '/auth/unrecognized-sign-in/'));
    await mail.getByRole('heading', { level: 1, name: 'Secure your account' }).waitFor();
    await captureBothSizes(mail, 'unrecognized-sign-in');

    await mail.getByRole('button', { name: 'Continue' }).click();
    await mail.getByRole('heading', { level: 1, name: 'You’re signed out everywhere' }).waitFor();
    await captureBothSizes(mail, 'unrecognized-sign-in-done');

    await expectSignedOut(laptop);
    await expectSignedOut(phone);

    await mail.getByRole('link', { name: 'Choose a new password' }).click();
    await mail.getByRole('heading', { level: 1, name: 'Set a new password' }).waitFor();

    // The link worked once.
    await mail.goto(linkPath(notice, '/auth/unrecognized-sign-in/'));
    await mail.getByRole('button', { name: 'Continue' }).click();
    await mail.getByRole('heading', { level: 1, name: 'This link can’t be used' }).waitFor();
    await mail.getByRole('link', { name: 'Reset your password' }).waitFor();
    assert.deepEqual(errors, []);
  });
});
