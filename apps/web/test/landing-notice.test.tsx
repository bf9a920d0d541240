import './support/dom.ts';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import {
  ACCESS_TOKEN_STORAGE_KEY,
  ACCOUNT_ROWS,
  recoveryCodeEndpoints,
  routes,
} from '@customer-core/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { noteRecoveryCodesLeft, offerRecoveryCodes } from '../src/components/factors/recovery-codes-left.ts';
import { LandingNoticeBanner } from '../src/features/dashboard/landing-notice-banner.tsx';
import { readLandingNotice } from '../src/lib/landing-notice.ts';
import { serveApi, type TestApi } from './support/api.ts';
import { expectNone, renderInApp } from './support/render.tsx';

// What a sign-in leaves for the home page to say, until the borrower dismisses it: the recovery codes
// left after signing in with one, and recovery codes offered after setting up a second step.

let api: TestApi | undefined;
beforeEach(() => localStorage.setItem(ACCESS_TOKEN_STORAGE_KEY, 'product-token'));
afterEach(async () => {
  localStorage.clear();
  sessionStorage.clear();
  await api?.close();
  api = undefined;
});

const signedInWith = (remaining: number) =>
  noteRecoveryCodesLeft({ status: 'SUCCESS', recoveryCodes: { remaining } } as never);
const codesStatus = (offered: boolean, remaining: number) => ({
  [`GET ${recoveryCodeEndpoints.status.path}`]: { status: 200, body: { offered, remaining } },
});

describe('the notice a sign-in leaves for the home page', () => {
  it('says how many recovery codes are left, and stays until dismissed', async () => {
    signedInWith(9);
    const first = renderInApp(<LandingNoticeBanner />);
    const notice = await screen.findByTestId('landing-notice');
    assert.equal(
      notice.textContent,
      'You signed in with a recovery code. It won\u2019t work again: you have 9 recovery codes left.',
    );
    assert.ok(notice.classList.contains('banner--info'));
    // Home shown again (another page, then back): the notice is still there.
    first.unmount();
    renderInApp(<LandingNoticeBanner />);
    const again = await screen.findByTestId('landing-notice');
    await act(async () => void fireEvent.click(within(again).getByRole('button', { name: 'Dismiss' })));
    expectNone(screen.queryByTestId('landing-notice'), 'the dismissed notice');
    assert.equal(readLandingNotice(), null);
  });

  it('keeps what happened, not words, so the home page says it in its own language', () => {
    signedInWith(3);
    assert.deepEqual(JSON.parse(sessionStorage.getItem('customer-core.landing-notice') ?? 'null'), {
      kind: 'recovery-codes-left',
      remaining: 3,
    });
    // What a tab stored in any other shape is not shown.
    sessionStorage.setItem(
      'customer-core.landing-notice',
      JSON.stringify({ tone: 'info', text: 'Old words' }),
    );
    assert.equal(readLandingNotice(), null);
  });

  it('warns after the last code, with the way to make new ones', async () => {
    api = await serveApi(codesStatus(true, 0));
    signedInWith(0);
    renderInApp(<LandingNoticeBanner />);
    const notice = await screen.findByTestId('landing-notice');
    assert.ok(notice.classList.contains('banner--warning'));
    assert.match(notice.textContent ?? '', /^You signed in with your last recovery code\. Make new ones/);
    const link = within(notice).getByRole('link', { name: 'Make recovery codes' });
    assert.equal(link.getAttribute('href'), `${routes.account.path}#${ACCOUNT_ROWS.recoveryCodes}`);
  });

  it('offers recovery codes after a second step is set up, where the borrower has none', async () => {
    api = await serveApi(codesStatus(true, 0));
    offerRecoveryCodes();
    renderInApp(<LandingNoticeBanner />);
    const notice = await screen.findByTestId('landing-notice');
    within(notice).getByRole('link', { name: 'Make recovery codes' });
    assert.deepEqual(
      api.calls.map((call) => call.path),
      [recoveryCodeEndpoints.status.path],
    );
  });

  it('drops the offer where recovery codes are not offered (a hosted org) or made already', async () => {
    for (const [offered, remaining] of [
      [false, 0],
      [true, 10],
    ] as const) {
      api = await serveApi(codesStatus(offered, remaining));
      offerRecoveryCodes();
      const shown = renderInApp(<LandingNoticeBanner />);
      await waitFor(() => assert.equal(readLandingNotice(), null));
      expectNone(screen.queryByTestId('landing-notice'), 'an offer of nothing to make');
      shown.unmount();
      await api.close();
      api = undefined;
    }
  });
});
