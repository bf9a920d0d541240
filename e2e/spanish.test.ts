import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { routes } from '@customer-core/contracts';
import type { Page } from 'playwright-core';
import { assertAccessible } from './support/accessibility.js';
import { collectPageErrors, screenshot } from './support/browser.js';
import { openAccountRow } from './support/account.js';
import { onPath } from './support/getting-back-in.js';
import { OPERATOR_ENV, borrowerLoans } from './support/loans.js';
import {
  DEMO,
  chooseLanguageBeforehand,
  openPortal,
  signInBySession,
  type Portal,
} from './support/portal.js';

// The portal in Spanish (es-US): chosen by the browser's languages or by the switcher, kept on the
// browser before sign-in and on the borrower's profile after; every screen in it axe-clean with
// lang="es". The Spanish words asserted are the catalogue's (apps/web/src/locales/es-US).

const language = (page: Page) => page.evaluate(() => document.documentElement.lang);

describe('the portal in Spanish (browser)', () => {
  let portal: Portal;
  before(async () => {
    portal = await openPortal(OPERATOR_ENV);
  });
  after(() => portal?.close());

  it('signs in in the browser’s language: the screen, its field errors and a refused password; the switcher turns it in place', async () => {
    // A browser set to Spanish, on its first visit.
    const { page } = await portal.newPage({ locale: 'es-US' });
    const errors = collectPageErrors(page);
    await page.goto(routes.signIn.path);
    await page.getByRole('heading', { level: 1, name: 'Le damos la bienvenida' }).waitFor();
    assert.equal(await language(page), 'es');
    await page.locator('form[data-ready="true"]').waitFor();
    await assertAccessible(page, 'sign-in in Spanish');
    await screenshot(page, 'es-sign-in');

    await page.getByRole('button', { name: 'INICIAR SESIÓN', exact: true }).click();
    await page.getByText('El correo electrónico es obligatorio.').waitFor();
    await page.getByText('La contraseña es obligatoria.').waitFor();
    await assertAccessible(page, 'sign-in in Spanish, with field errors');

    await page.getByLabel('Correo electrónico').fill(DEMO.email);
    await page.getByLabel('Contraseña', { exact: true }).fill('Not-The-Password-1');
    await page.getByRole('button', { name: 'INICIAR SESIÓN', exact: true }).click();
    await page.getByText('No se pudo autenticar al usuario.').waitFor();
    await assertAccessible(page, 'sign-in in Spanish, refused');
    await screenshot(page, 'es-sign-in-refused');

    // To English and back, on the same screen, what was typed still there.
    const switcher = page.getByTestId('language-switcher');
    assert.equal(await switcher.getAttribute('lang'), 'en');
    await switcher.click();
    await page.getByRole('heading', { level: 1, name: 'Welcome Back' }).waitFor();
    assert.equal(await language(page), 'en');
    assert.equal(new URL(page.url()).pathname, routes.signIn.path);
    assert.equal(await page.getByLabel('Email').inputValue(), DEMO.email);
    // The choice outlasts the page: it wins over the browser's languages on the next load.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Welcome Back' }).waitFor();
    await page.getByTestId('language-switcher').click();
    await page.getByRole('heading', { level: 1, name: 'Le damos la bienvenida' }).waitFor();
    assert.deepEqual(errors, []);
  });

  it('shows the home, a past-due loan, the checkout and signing, and the account page in Spanish', async () => {
    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    await chooseLanguageBeforehand(page, 'es-US');
    await signInBySession(portal, page, { fromBrowser: true });
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.getByTestId('loan-summary').first().waitFor();
    assert.equal(await language(page), 'es');
    await page.getByRole('link', { name: 'Préstamos' }).first().waitFor();
    await assertAccessible(page, 'home in Spanish');
    await screenshot(page, 'es-home');

    // The past-due loan: its notice, how late in Spanish plurals, its schedule's words.
    const loans = await borrowerLoans(page);
    const pastDue = loans.find((loan) => loan.reference === 'LN-DEMO-2');
    assert.ok(pastDue, 'the demo borrower’s past-due loan');
    await page.goto(routes.loanDetails.href({ loanId: pastDue.id }));
    const notice = page.getByTestId('overdue-notice');
    await notice.getByText(/^Tiene .* en pagos vencidos$/).waitFor();
    assert.match(await notice.innerText(), /en pagos vencidos/);
    assert.match(await notice.innerText(), /\d+ días? de atraso/);
    await page.locator('[data-testid="instalment"][data-state="past_due"]').getByText('Vencida').waitFor();
    await assertAccessible(page, 'past-due loan in Spanish');
    await screenshot(page, 'es-loan-past-due');

    // The checkout: each document read to its end, then all signed at once.
    const active = loans.find((loan) => loan.reference === 'LN-DEMO-1');
    assert.ok(active, 'the demo borrower’s loan with documents to sign');
    await page.goto(routes.loanCheckout.href({ loanId: active.id }));
    await page.getByRole('heading', { name: 'Revise y firme sus documentos' }).waitFor();
    await page.getByTestId('checkout-document').first().waitFor();
    await assertAccessible(page, 'checkout in Spanish');
    await screenshot(page, 'es-checkout');
    const readButtons = page.getByRole('button', { name: /^Leer documento: / });
    while ((await readButtons.count()) > 0) {
      await readButtons.first().click();
      const reading = page.getByTestId('checkout-reading');
      await reading.getByTestId('document-end').scrollIntoViewIfNeeded();
      await reading.getByTestId('reading-reviewed').waitFor();
      await reading.getByRole('button', { name: 'Volver a sus documentos' }).first().click();
      await page.getByTestId('checkout-document').first().waitFor();
    }
    const form = page.getByTestId('sign-all-form');
    const consent = form.getByRole('checkbox', { name: 'Acepto firmar electrónicamente' });
    if (await consent.count()) await consent.check();
    await form.getByRole('button', { name: 'Firmar todo' }).click();
    await form.getByText('Ingrese su nombre completo para firmar.').waitFor();
    await form.getByLabel('Su nombre completo').fill(`${DEMO.firstName} ${DEMO.lastName}`);
    await form.getByRole('checkbox', { name: 'He leído estos documentos y los acepto' }).check();
    await form.getByRole('button', { name: 'Firmar todo' }).click();
    await page.getByTestId('checkout-complete').waitFor();
    await page.getByTestId('document-state').filter({ hasText: 'Firmado' }).first().waitFor();
    await assertAccessible(page, 'checkout signed, in Spanish');
    await screenshot(page, 'es-checkout-signed');

    // The account page.
    await page.goto(routes.account.path);
    await page.getByRole('heading', { level: 1, name: 'Inicio de sesión y seguridad' }).waitFor();
    // The device the API recognised, in Spanish words.
    await page
      .getByTestId('session-device')
      .filter({ hasText: /Chrom(e|ium) en Linux/ })
      .waitFor();
    await assertAccessible(page, 'account page in Spanish');
    await screenshot(page, 'es-account');
    assert.deepEqual(errors, []);
  });

  it('keeps the choice on the borrower’s profile: after signing out, another browser signs in to Spanish', async () => {
    // Signed in through the form, in English, the account page's Language row turns it to Spanish.
    const first = await portal.newPage();
    await first.page.goto(routes.signIn.path);
    await first.page.getByLabel('Email').fill(DEMO.email);
    await first.page.getByLabel('Password', { exact: true }).fill(DEMO.password);
    await first.page.getByRole('button', { name: 'LOGIN' }).click();
    await first.page.waitForURL(onPath(routes.dashboard.path), { timeout: 20_000 });
    await first.page.goto(routes.account.path);
    const row = first.page.getByTestId('account-language');
    assert.equal(await row.getByTestId('account-language-summary').innerText(), 'English');
    await openAccountRow(row);
    await row.getByTestId('account-language-es-US').check();
    await row.getByTestId('account-language-save').click();
    await row.getByText('Guardado. También le escribiremos en este idioma.').waitFor();
    await first.page.getByRole('heading', { level: 1, name: 'Inicio de sesión y seguridad' }).waitFor();
    assert.equal(await row.getByTestId('account-language-summary').innerText(), 'Español');
    await assertAccessible(first.page, 'account page, language saved');
    await first.page
      .getByTestId('app-header')
      .getByRole('button', { name: /menú de la cuenta|^Menú$/ })
      .click();
    await first.page.getByRole('menuitem', { name: 'Cerrar sesión' }).click();
    await first.page.waitForURL(onPath(routes.signIn.path));
    await first.page.getByRole('heading', { level: 1, name: 'Le damos la bienvenida' }).waitFor();

    // Another browser, in English: signing in brings the profile's Spanish.
    const second = await portal.newPage({ locale: 'en-US' });
    await second.page.goto(routes.signIn.path);
    await second.page.getByRole('heading', { level: 1, name: 'Welcome Back' }).waitFor();
    await second.page.getByLabel('Email').fill(DEMO.email);
    await second.page.getByLabel('Password', { exact: true }).fill(DEMO.password);
    await second.page.getByRole('button', { name: 'LOGIN' }).click();
    await second.page.waitForURL(onPath(routes.dashboard.path), { timeout: 20_000 });
    await second.page.getByRole('link', { name: 'Préstamos' }).first().waitFor();
    assert.equal(await language(second.page), 'es');
  });
});
