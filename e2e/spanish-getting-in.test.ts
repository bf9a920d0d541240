import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LOCALE_STORAGE_KEY, routes } from '@customer-core/contracts';
import type { Page } from 'playwright-core';
import { assertAccessible } from './support/accessibility.js';
import { collectPageErrors, screenshot } from './support/browser.js';
import { onPath, withText } from './support/getting-back-in.js';
import { OPERATOR_ENV, runCliInProcess } from './support/joining.js';
import { inbox, linkPath, waitForMail } from './support/mailbox.js';
import { DEMO, chooseLanguageBeforehand, openPortal, submitSignIn, type Portal } from './support/portal.js';
import { authenticatorCode } from './support/second-factor.js';

// Getting in, in Spanish: a forgotten password reset, registering from an invitation (the language
// kept on the new profile), and a sign-in with an authenticator app's code. Each screen's words are the
// es-US catalogue's (apps/web/src/locales/es-US), the page's language is Spanish, and it is axe-clean.

const NEW_PASSWORD = 'Nueva-Clave-2026';
const INVITED = { email: 'lucia.fernandez@example.com', firstName: 'Lucía', lastName: 'Fernández' };
const INVITED_PASSWORD = 'Panaderia-Lucia-2026';
const TWO_STEP = { email: 'dos.pasos@example.com', password: 'Prestatario-Pass-42', firstName: 'Teo' };

const notThe = (code: string) => (code === '000000' ? '111111' : '000000');

/** Opens `path` with Spanish chosen on this browser beforehand, as the footer's switcher leaves it. */
async function openInSpanish(page: Page, path: string): Promise<void> {
  await chooseLanguageBeforehand(page, 'es-US');
  await page.goto(path);
}

const pageLanguage = (page: Page) => page.evaluate(() => document.documentElement.lang);

/** The screen says it is in Spanish (for screen readers and the browser), and is axe-clean. */
async function assertSpanishScreen(page: Page, label: string): Promise<void> {
  assert.equal(await pageLanguage(page), 'es', `${label}: <html lang>`);
  await assertAccessible(page, label);
  await screenshot(page, `es-${label.replaceAll(/[^a-z0-9]+/gi, '-')}`);
}

/** The sign-in form, filled and sent as a Spanish-speaking borrower sees it. */
async function submitSignInInSpanish(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'INICIAR SESIÓN', exact: true }).click();
}

describe('getting in, in Spanish (browser)', () => {
  let portal: Portal;
  before(async () => {
    portal = await openPortal(OPERATOR_ENV);
  });
  after(() => portal?.close());

  it('resets a forgotten password in Spanish: the request, the rules and errors, then the notice', async () => {
    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    await openInSpanish(page, routes.forgotPassword.path);
    await page.getByRole('heading', { name: 'Restablezca su contraseña' }).waitFor();
    // The brand panel's phone, its screen drawn in Spanish too.
    const phone = page.getByRole('img', {
      name: 'Un teléfono que muestra el panel de su cuenta con el saldo del préstamo, el próximo pago y la actividad reciente',
    });
    assert.match((await phone.getAttribute('src')) ?? '', /\/phone-preview\.es-US-[\w-]+\.svg$/);
    await assertSpanishScreen(page, 'forgot password');

    const before = (await inbox(portal.baseUrl, DEMO.email)).length;
    await page.getByLabel('Correo electrónico', { exact: true }).fill(DEMO.email);
    await page.getByRole('button', { name: 'Enviar enlace para restablecer' }).click();
    await page
      .getByTestId('forgot-password-sent')
      .getByRole('heading', { name: 'Revise su correo electrónico' })
      .waitFor();
    await assertSpanishScreen(page, 'forgot password sent');
    const resetPath = linkPath(
      await waitForMail(portal.baseUrl, DEMO.email, before + 1),
      '/auth/password-reset/',
    );

    // The reset page, in the language this browser keeps: its fields, and the rules as a checklist.
    await page.goto(resetPath);
    await page.getByRole('heading', { name: 'Establezca una nueva contraseña' }).waitFor();
    const password = page.getByLabel('Nueva contraseña', { exact: true });
    const confirm = page.getByLabel('Confirme la nueva contraseña');
    const save = page.getByRole('button', { name: 'Guardar la nueva contraseña' });
    const rules = page.getByRole('list', { name: 'Su contraseña debe tener:' });
    // Each rule in Spanish, with what a screen reader hears of it (none met yet).
    assert.deepEqual(await rules.getByRole('listitem').allTextContents(), [
      'Aún no cumplido: Al menos 8 caracteres',
      'Aún no cumplido: Una letra mayúscula y una minúscula',
      'Aún no cumplido: Un número o uno de estos símbolos: !@#$%^&*()',
    ]);
    await assertSpanishScreen(page, 'password reset');

    // The form's own message, and the API's refusal, under the field in Spanish.
    await save.click();
    await page
      .getByTestId('password-reset-password-error')
      .filter(withText('La contraseña es obligatoria.'))
      .waitFor();
    await assertSpanishScreen(page, 'password reset with errors');
    await password.fill('Password1');
    await confirm.fill('Password1');
    await save.click();
    await page
      .getByTestId('password-reset-password-error')
      .filter(withText('Esta contraseña es demasiado común. Elija otra.'))
      .waitFor();

    await password.fill(NEW_PASSWORD);
    await confirm.fill(NEW_PASSWORD);
    await save.click();
    await page.waitForURL(onPath(routes.signIn.path));
    await page
      .getByRole('status')
      .filter(withText('Se cambió su contraseña. Inicie sesión con la nueva.'))
      .waitFor();
    await page.getByRole('button', { name: 'INICIAR SESIÓN', exact: true }).waitFor();
    await assertSpanishScreen(page, 'sign-in with the password-changed notice');
    assert.deepEqual(errors, []);
  });

  it('registers from an invitation in Spanish, and the new profile keeps Spanish for the next sign-in', async () => {
    await runCliInProcess(portal.baseUrl, [
      'invite',
      '--email',
      INVITED.email,
      '--first-name',
      INVITED.firstName,
      '--last-name',
      INVITED.lastName,
      '--locale',
      'es-US',
    ]);
    const registrationPath = linkPath(
      await waitForMail(portal.baseUrl, INVITED.email),
      '/user-registration/',
    );

    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    await openInSpanish(page, registrationPath);
    await page.getByRole('heading', { name: 'Cree su cuenta' }).waitFor();
    assert.equal(await page.getByRole('group', { name: 'Correo electrónico' }).innerText(), INVITED.email);
    assert.match(
      await page.getByTestId('user-registration-greeting').innerText(),
      new RegExp(
        `^Le damos la bienvenida, ${INVITED.firstName} ${INVITED.lastName}\\. .+ le envió una invitación`,
      ),
    );
    await assertSpanishScreen(page, 'registration');

    const create = page.getByRole('button', { name: 'Crear cuenta' });
    await create.click();
    await page
      .getByTestId('user-registration-password-error')
      .filter(withText('La contraseña es obligatoria.'))
      .waitFor();
    await assertSpanishScreen(page, 'registration with errors');

    await page.getByLabel('Contraseña', { exact: true }).fill(INVITED_PASSWORD);
    await page.getByLabel('Confirme la contraseña').fill(INVITED_PASSWORD);
    await create.click();
    await page.waitForURL(onPath(routes.dashboard.path), { timeout: 20_000 });
    await page.getByRole('heading', { name: `Hola, ${INVITED.firstName}` }).waitFor();
    // The welcome said in Spanish before the redirect through the identity provider, shown on arrival.
    const toast = page.getByTestId('toast').filter(withText('Su cuenta está lista.'));
    await toast.waitFor();
    assert.match(await toast.innerText(), new RegExp(`¡Le damos la bienvenida, ${INVITED.firstName}!`));
    await page.getByTestId('loans').and(page.locator('[data-state="loaded"]')).waitFor();
    await assertSpanishScreen(page, 'home after registration');
    assert.deepEqual(errors, []);

    // Another browser, with no choice of its own (English): signing in adopts the profile's Spanish.
    const other = (await portal.newPage()).page;
    const otherErrors = collectPageErrors(other);
    await other.goto(routes.signIn.path);
    await other.getByRole('button', { name: 'LOGIN' }).waitFor();
    assert.equal(await pageLanguage(other), 'en');
    await submitSignIn(other, INVITED.email, INVITED_PASSWORD);
    await other.waitForURL(onPath(routes.dashboard.path), { timeout: 20_000 });
    await other.getByRole('heading', { name: `Hola, ${INVITED.firstName}` }).waitFor();
    assert.equal(await pageLanguage(other), 'es');
    assert.equal(await other.evaluate((key) => localStorage.getItem(key), LOCALE_STORAGE_KEY), 'es-US');
    assert.deepEqual(otherErrors, []);
  });

  it('signs in with an authenticator app’s code in Spanish: the step, a wrong code, then the home', async () => {
    const idp = portal.server.server.identityProvider!;
    const user = await idp.users.create({
      login: TWO_STEP.email,
      password: TWO_STEP.password,
      firstName: TWO_STEP.firstName,
      lastName: 'Dos Pasos',
      // A Spanish speaker's profile: the sign-in adopts the profile's language, whatever the form's.
      locale: 'es_US',
    });
    const enrolled = await idp.factors.enrolTotp(user.id);
    assert.equal(enrolled.kind, 'enrolled');
    if (enrolled.kind !== 'enrolled') return;
    const secret = enrolled.factor.secret!;
    const activated = await idp.factors.activate(user.id, enrolled.factor.id, authenticatorCode(secret));
    assert.equal(activated.kind, 'activated');

    const { page } = await portal.newPage();
    const errors = collectPageErrors(page);
    await openInSpanish(page, routes.signIn.path);
    await submitSignInInSpanish(page, TWO_STEP.email, TWO_STEP.password);
    await page.getByRole('heading', { name: 'Ingrese su código' }).waitFor();
    assert.equal(
      await page.getByTestId('factor-step-account').innerText(),
      `Iniciando sesión como ${TWO_STEP.email}`,
    );
    await page
      .getByText('Abra su aplicación de autenticación e ingrese el código de 6 dígitos que aparece.')
      .waitFor();
    await assertSpanishScreen(page, 'sign-in factor code');

    // The activation took this time step: the app's next code is the right one.
    const code = page.getByLabel('Código de 6 dígitos');
    const verify = page.getByRole('button', { name: 'Verificar' });
    await code.fill(notThe(authenticatorCode(secret, 1)));
    await verify.click();
    await page
      .getByTestId('sign-in-factor-code-error')
      .filter(withText('Ese código no funcionó. Revise su aplicación e ingrese el código que aparece ahora.'))
      .waitFor();
    await assertSpanishScreen(page, 'sign-in factor wrong code');

    await code.fill(authenticatorCode(secret, 1));
    await verify.click();
    await page.waitForURL(onPath(routes.dashboard.path), { timeout: 20_000 });
    await page.getByRole('heading', { name: `Hola, ${TWO_STEP.firstName}` }).waitFor();
    await page.getByTestId('loans').and(page.locator('[data-state="loaded"]')).waitFor();
    await assertSpanishScreen(page, 'home after the second factor');
    assert.deepEqual(errors, []);
  });
});
