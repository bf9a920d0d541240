import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { routes } from '@customer-core/contracts';
import { assertAccessible } from './support/accessibility.js';
import { openAccountRow } from './support/account.js';
import { collectPageErrors, screenshot, screenshotsAtBothSizes } from './support/browser.js';
import { openPortal, submitSignIn, type Portal } from './support/portal.js';

// The borrower's recent security activity on the account page: a failed password from another
// browser and a password change show up beside the sign-in, newest first. The other browser is a
// stranger's who wrote a phone number as its User-Agent: the page names no device for it.

const STRANGERS_USER_AGENT = 'Main Street Funding security: call 1-800-555-0199 now/1 (urgent)';

describe('recent security activity (browser)', () => {
  let portal: Portal;
  before(async () => {
    portal = await openPortal();
  });
  after(() => portal?.close());

  it('lists the sign-in, a failed password elsewhere and the password change, then older pages', async () => {
    const borrower = { email: `activity-${randomUUID()}@example.com`, password: 'Before-Change-31' };
    const newPassword = 'After-Change-47';
    await portal.server.server.identityProvider!.users.create({
      login: borrower.email,
      password: borrower.password,
      firstName: 'Grace',
      lastName: 'Hopper',
    });
    const { page: laptop } = await portal.newPage();
    const { page: stranger } = await portal.newPage({ userAgent: STRANGERS_USER_AGENT });
    const errors = collectPageErrors(laptop);

    await laptop.goto(routes.signIn.path);
    await submitSignIn(laptop, borrower.email, borrower.password);
    await laptop.waitForURL((url) => url.pathname.startsWith(routes.dashboard.path), { timeout: 20_000 });

    // Someone else tries a wrong password from another browser.
    await stranger.goto(routes.signIn.path);
    await submitSignIn(stranger, borrower.email, 'Guessing-Wrong-8');
    await stranger.getByRole('alert').filter({ hasText: 'User could not be authenticated.' }).waitFor();

    await laptop.goto(routes.account.path);
    const section = laptop.getByTestId('account-activity');
    await section.getByRole('heading', { level: 2, name: 'Recent security activity' }).waitFor();
    // Closed, the row names the latest event; open, the list.
    await section
      .getByTestId('account-activity-summary')
      .filter({ hasText: /^Latest: 1 failed sign-in attempt, / })
      .waitFor();
    await openAccountRow(section);
    await section.getByTestId('activity-row').first().waitFor();
    assert.deepEqual(
      await section
        .getByTestId('activity-row')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-kind'))),
      ['failed_sign_ins', 'signed_in'],
    );
    const failed = await section.getByTestId('activity-row').nth(0).innerText();
    assert.match(failed, /^1 failed sign-in attempt\n+.* · Unknown device · Network 127\.0\.0\.0\/24$/);
    assert.doesNotMatch(await section.innerText(), /1-800-555-0199/);
    assert.match(await section.getByTestId('activity-row').nth(1).innerText(), /Signed in · Password/);
    assert.match(
      await section.getByTestId('activity-row').nth(1).innerText(),
      /Chrom(e|ium) on Linux · Network 127\.0\.0\.0\/24/,
    );

    // The password change appears at once, on top.
    const password = laptop.getByTestId('account-password');
    await openAccountRow(password);
    await password.getByLabel('Current password').fill(borrower.password);
    await password.getByLabel('New password', { exact: true }).fill(newPassword);
    await password.getByLabel('Confirm new password').fill(newPassword);
    await password.getByRole('button', { name: 'Change password' }).click();
    await laptop
      .getByTestId('account-password-notice')
      .filter({ hasText: 'Your password is changed' })
      .waitFor();
    await section
      .getByTestId('account-activity-summary')
      .filter({ hasText: /^Latest: Password changed, / })
      .waitFor();
    await openAccountRow(section);
    await section.locator('[data-testid="activity-row"][data-kind="password_changed"]').waitFor();
    assert.deepEqual(
      await section
        .getByTestId('activity-row')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-kind'))),
      ['password_changed', 'failed_sign_ins', 'signed_in'],
    );
    await section.scrollIntoViewIfNeeded();
    await assertAccessible(laptop, 'account page with security activity');
    await screenshotsAtBothSizes(laptop, 'account-activity');

    // Older activity, a page at a time: recorded earlier in the 90 days.
    const db = portal.server.server.db;
    const { id: borrowerId } = await db
      .selectFrom('borrower')
      .select('id')
      .where('email', '=', borrower.email)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('security_event')
      .values(
        Array.from({ length: 20 }, (_, i) => ({
          borrower_id: borrowerId,
          kind: 'signed_in',
          method: 'email_link',
          occurred_at: new Date(Date.now() - (i + 2) * 86_400_000),
        })),
      )
      .execute();
    await laptop.reload();
    await openAccountRow(section);
    await section.getByTestId('activity-row').first().waitFor();
    assert.equal(await section.getByTestId('activity-row').count(), 20);
    const older = section.getByRole('button', { name: 'Show older activity' });
    await older.focus();
    await screenshot(laptop, 'account-activity-older-focus');
    await laptop.keyboard.press('Enter');
    // (While it loads, the button reads "Showing older activity…": wait for the rows, not for it.)
    await section.getByTestId('activity-row').nth(22).waitFor();
    assert.equal(await section.getByTestId('activity-row').count(), 23);
    assert.equal(await section.getByRole('button', { name: /older activity/ }).count(), 0, 'the last page');
    // The focus goes to the first entry the button added, not back to the top.
    assert.equal(
      await section
        .getByTestId('activity-row')
        .nth(20)
        .evaluate((node) => node === document.activeElement),
      true,
    );
    await assertAccessible(laptop, 'security activity, older page');
    await screenshotsAtBothSizes(laptop, 'account-activity-older');
    assert.deepEqual(errors, []);
  });
});
