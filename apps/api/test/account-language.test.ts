import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ACCOUNT_ERROR_CODES,
  accountEndpoints,
  authEndpoints,
  ESIGN_CONSENT,
  documentEndpoints,
  DocumentListSchema,
  loanEndpoints,
  ProfileSchema,
  registrationEndpoints,
  signingEndpoints,
} from '@customer-core/contracts';
import { extractText, getDocumentProxy } from 'unpdf';
import { signInThroughIdp, startTestServer, type TestServer } from '../testing/index.js';
import { authn, createUser, mailFor } from './support/links.js';
import { invite, linkTokenOf, uniqueEmail } from './support/joining.js';
import { accessTokenOf, activeLoan, addLoan, call, OPERATOR_ENV, OPERATOR_SECRET } from './support/loans.js';
import { post } from './support/session.js';

// The borrower's language (PUT /api/account/language): kept on their profile in the identity
// provider, so a new sign-in's ID token says it, and followed by what the portal writes to them: the
// e-mails (a password reset here) and the signature certificate. An invitation goes out in the
// language the operator chose.

const PASSWORD = 'Original-Pass-1';
const LOOKUP_SECRET = 'lookup-secret-for-language-tests-0123456789';
const SPANISH = 'es-US';

/** The claims of a JWT, unchecked (the test reads what the identity provider wrote). */
const claimsOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

describe('the borrower’s language', () => {
  let server: TestServer;
  let url: string;

  before(async () => {
    server = await startTestServer('pglite', {
      SERVICE_CREDENTIALS: `${OPERATOR_ENV.SERVICE_CREDENTIALS},servicing:lookup-tokens:${LOOKUP_SECRET}`,
    });
    url = server.baseUrl;
  });
  after(() => server?.close());

  const setLanguage = (token: string | undefined, body: unknown) =>
    call(url, 'PUT', accountEndpoints.setLanguage.path, token, body);
  const signIn = (user: { login: string; password: string }) => accessTokenOf(url, user.login, user.password);

  it('refuses a caller without an access token, before reading the body', async () => {
    const refused = await setLanguage(undefined, { locale: SPANISH });
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error, 'unauthorized');
    const forged = await setLanguage('not-a-token', { locale: SPANISH });
    assert.ok([400, 401].includes(forged.status), String(forged.status));
  });

  it('answers 400 in the API’s usual shape to a locale it does not speak, whatever its shape', async () => {
    const user = await createUser(server, PASSWORD);
    const token = await signIn(user);
    const hostile: Array<[string, unknown]> = [
      ['no body member', {}],
      ['a number', { locale: 1 }],
      ['null', { locale: null }],
      ['a boolean', { locale: true }],
      ['an unknown language', { locale: 'xx-YY' }],
      ['Okta’s spelling', { locale: 'es_US' }],
      ['another case', { locale: 'ES-us' }],
      ['a language without its region', { locale: 'es' }],
      ['a 10 KB string', { locale: 'es-US'.padEnd(10 * 1024, 'x') }],
      ['an object', { locale: { toString: 'es-US' } }],
      ['an array', { locale: ['es-US'] }],
      ['markup', { locale: '<script>alert(1)</script>' }],
      ['a prototype key', JSON.parse('{"locale":"es-US","__proto__":{"locale":"xx"}}')],
    ];
    for (const [what, body] of hostile) {
      const answer = await setLanguage(token, body);
      assert.equal(answer.status, 400, `${what}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.error, 'bad_request', what);
      assert.equal(typeof answer.body.message, 'string', what);
      assert.ok(!String(answer.body.message).includes('<script>'), `${what}: no echo`);
    }
    const notJson = await fetch(`${url}${accountEndpoints.setLanguage.path}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"locale": ',
    });
    assert.equal(notJson.status, 400);
    const idp = server.server.identityProvider!;
    assert.equal((await idp.users.findById(user.id))?.locale, 'en_US', 'nothing was changed');
  });

  it('keeps the choice on the directory profile: the profile and a new sign-in’s ID token say it', async () => {
    const user = await createUser(server, PASSWORD);
    const token = await signIn(user);
    const profileBefore = ProfileSchema.parse(
      (await call(url, 'GET', authEndpoints.profile.path, token)).body,
    );
    assert.equal(profileBefore.locale, 'en-US', 'English until they choose');

    const set = await setLanguage(token, { locale: SPANISH });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.deepEqual(set.body, { locale: SPANISH });

    const idp = server.server.identityProvider!;
    assert.equal((await idp.users.findById(user.id))?.locale, 'es_US', 'Okta’s spelling on the profile');
    const profile = ProfileSchema.parse((await call(url, 'GET', authEndpoints.profile.path, token)).body);
    assert.equal(profile.locale, SPANISH);

    const { idToken } = await signInThroughIdp(url, { username: user.login, password: PASSWORD });
    assert.equal(claimsOf(idToken).locale, SPANISH, 'a new sign-in’s ID token');
    const authnAnswer = (await (await authn(url, user.login, PASSWORD)).json()) as {
      _embedded: { user: { profile: { locale: string } } };
    };
    assert.equal(authnAnswer._embedded.user.profile.locale, 'es_US', 'the profile the sign-in stores');

    // And back: the same call, the other language.
    assert.deepEqual((await setLanguage(token, { locale: 'en-US' })).body, { locale: 'en-US' });
    const again = await signInThroughIdp(url, { username: user.login, password: PASSWORD });
    assert.equal(claimsOf(again.idToken).locale, 'en-US');
  });

  it('refuses a borrower whose identity is not the directory’s: there is no profile to keep it on', async () => {
    const email = uniqueEmail('elsewhere');
    const added = await addLoan(url, activeLoan(`LN-LANG-${Date.now() % 100000}`, email));
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const borrower = await server.server.db
      .selectFrom('borrower')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    // A session from a lookup token: the borrower has no identity of the directory.
    const lookup = await call(url, 'POST', authEndpoints.mintLookupToken.path, LOOKUP_SECRET, {
      borrowerId: borrower.id,
    });
    assert.equal(lookup.status, 200, JSON.stringify(lookup.body));
    const exchanged = await call(url, 'POST', authEndpoints.lookupTokenExchange.path, undefined, {
      token: lookup.body.token,
    });
    const refused = await setLanguage(String(exchanged.body.access_token), { locale: SPANISH });
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body.error, ACCOUNT_ERROR_CODES.languageNotKept);
  });

  it('e-mails a password reset in Spanish to a borrower who chose it: subject, HTML and text', async () => {
    const user = await createUser(server, PASSWORD);
    assert.equal((await setLanguage(await signIn(user), { locale: SPANISH })).status, 200);
    const sent = await post(url, authEndpoints.passwordReset.path, { email: user.login });
    assert.equal(sent.status, 200);
    const [mail] = await mailFor(url, user.login);
    const lender = server.config.lender.name;
    assert.equal(mail!.subject, `Restablezca su contraseña de ${lender}`);
    for (const part of [mail!.text, mail!.html]) {
      assert.ok(part.includes('Hola, Ada'), part);
      assert.ok(part.includes('El enlace funciona una sola vez y caduca en 30 minutos.'), part);
      assert.ok(part.includes('Elegir una nueva contraseña'));
      assert.ok(part.includes('Nunca le pediremos su contraseña por correo electrónico ni por teléfono.'));
      for (const english of ['Reset your password', 'expires in', 'Questions?', 'Hi Ada', 'minutes'])
        assert.ok(!part.includes(english), `no English left: ${english}`);
    }
    assert.match(mail!.html, /<html lang="es-US">/);
    assert.match(mail!.html, /Si el botón no funciona, copie este enlace en su navegador:/);
    assert.ok(mail!.links.some((link) => link.includes('/auth/password-reset/')));
  });

  it('e-mails an invitation in the language the operator chose, and in English by default', async () => {
    const lender = server.config.lender.name;
    const spanish = uniqueEmail('invited.es');
    const invited = await invite(
      url,
      { email: spanish, firstName: 'Lucía', lastName: 'Ramos', locale: SPANISH },
      OPERATOR_SECRET,
    );
    assert.equal(invited.status, 201, await invited.clone().text());
    const [mail] = await mailFor(url, spanish);
    assert.equal(mail!.subject, `Le damos la bienvenida a ${lender}: configure su cuenta en línea`);
    assert.ok(mail!.text.includes('Hola, Lucía:'));
    assert.ok(mail!.text.includes('caduca en 7 días'), mail!.text);
    assert.ok(mail!.html.includes('Configurar mi cuenta'));

    const english = uniqueEmail('invited.en');
    const invitedInEnglish = await invite(
      url,
      { email: english, firstName: 'Lucy', lastName: 'Rams' },
      OPERATOR_SECRET,
    );
    assert.equal(invitedInEnglish.status, 201);
    const [englishMail] = await mailFor(url, english);
    assert.equal(englishMail!.subject, `Welcome to ${lender}: set up your online account`);

    for (const locale of ['xx-YY', 7, { lang: 'es' }, 'es-US'.repeat(2000)]) {
      const refused = await invite(
        url,
        { email: uniqueEmail('invited.bad'), firstName: 'A', lastName: 'B', locale },
        OPERATOR_SECRET,
      );
      assert.equal(refused.status, 400, JSON.stringify(locale).slice(0, 40));
    }
  });

  it('keeps the language a borrower registered in on their new profile; a language it does not speak is refused', async () => {
    const email = uniqueEmail('registers.es');
    assert.equal(
      (await invite(url, { email, firstName: 'Rosa', lastName: 'Díaz' }, OPERATOR_SECRET)).status,
      201,
    );
    const [mail] = await mailFor(url, email);
    const token = linkTokenOf(mail!, '/user-registration/');
    const register = (body: Record<string, unknown>) =>
      post(url, registrationEndpoints.register.path, { token, password: PASSWORD, ...body });

    const refused = await register({ locale: 'xx-YY' });
    assert.equal(refused.status, 400, 'refused before the invitation is spent');
    const registered = await register({ locale: SPANISH });
    assert.equal(registered.status, 200, await registered.clone().text());
    const { idToken } = await signInThroughIdp(url, { username: email, password: PASSWORD });
    assert.equal(claimsOf(idToken).locale, SPANISH, 'their first sign-in’s ID token');
  });

  it('writes the signature certificate in the signer’s language; the agreement stays as written', async () => {
    const user = await createUser(server, PASSWORD);
    const reference = `LN-ES-${Date.now() % 100000}`;
    assert.equal((await addLoan(url, activeLoan(reference, user.login))).status, 201);
    const token = await signIn(user);
    assert.equal((await setLanguage(token, { locale: SPANISH })).status, 200);
    const consent = await call(url, 'POST', signingEndpoints.giveEsignConsent.path, token, {
      version: ESIGN_CONSENT.version,
      agreed: true,
    });
    assert.equal(consent.status, 200, JSON.stringify(consent.body));

    const list = DocumentListSchema.parse(
      (await call(url, 'GET', documentEndpoints.documents.path, token)).body,
    );
    const group = list.loans.find((g) => g.loan.reference === reference)!;
    const agreement = group.documents.find((d) => d.requiresSignature)!;
    const loanId = group.loan.id;
    assert.equal((await call(url, 'POST', loanEndpoints.startCheckout.href({ loanId }), token)).status, 200);
    const documentId = agreement.id;
    const review = await call(url, 'POST', loanEndpoints.reviewDocument.href({ loanId, documentId }), token);
    assert.equal(review.status, 200, JSON.stringify(review.body));
    const signed = await call(url, 'POST', loanEndpoints.signDocument.href({ loanId, documentId }), token, {
      signatureName: 'Ada Lovelace',
      agreed: true,
    });
    assert.equal(signed.status, 200, JSON.stringify(signed.body));

    const response = await fetch(`${url}${documentEndpoints.signedDocumentPdf.href({ documentId })}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(response.status, 200);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(await response.arrayBuffer())), {
      mergePages: true,
    });
    assert.match(text, /Certificado de firma/);
    assert.match(text, /FIRMA \(NOMBRE TAL COMO SE ESCRIBIÓ\)\s+Ada Lovelace/);
    assert.match(text, /NOMBRE DE LA CUENTA DEL FIRMANTE\s+Ada Lovelace/);
    assert.match(text, /FORMA DE INICIO DE SESIÓN\s+Contraseña \(amr: pwd\)/);
    assert.match(text, /VERIFICACIÓN EN DOS PASOS\s+Ninguna/);
    assert.match(text, /CONSENTIMIENTO PARA FIRMAR ELECTRÓNICAMENTE\s+Otorgado el \d{4}-\d\d-\d\d/);
    assert.match(text, /La huella digital es el hash SHA-256 del texto del documento/);
    assert.match(text, new RegExp(`préstamo ${reference}`));
    for (const english of ['Signature certificate', 'Not recorded', 'Sign-in method', 'The fingerprint is'])
      assert.ok(!text.includes(english), `no English certificate words: ${english}`);
    // The agreement's text is the lender's, in the lender's words.
    assert.ok(text.includes('The Lender lends the Borrower'), 'the document text as written');
  });
});

describe(
  'two changes of language at once, on PostgreSQL',
  { skip: !process.env.TEST_DATABASE_URL && 'needs TEST_DATABASE_URL' },
  () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer('postgres');
    });
    after(() => server?.close());

    it('each succeeds, and the profile and the next sign-in agree on one of the languages asked for', async () => {
      const url = server.baseUrl;
      const user = await createUser(server, PASSWORD);
      // Two browsers of the borrower's, each changing the language back and forth at the same time.
      const tokens = [
        await accessTokenOf(url, user.login, PASSWORD),
        await accessTokenOf(url, user.login, PASSWORD),
      ];
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          call(url, 'PUT', accountEndpoints.setLanguage.path, tokens[i % 2], {
            locale: i % 3 === 0 ? SPANISH : 'en-US',
          }),
        ),
      );
      assert.deepEqual(
        answers.map((answer) => answer.status),
        Array(12).fill(200),
      );
      const profile = ProfileSchema.parse(
        (await call(url, 'GET', authEndpoints.profile.path, tokens[0])).body,
      );
      assert.ok(profile.locale === SPANISH || profile.locale === 'en-US', String(profile.locale));
      const { idToken } = await signInThroughIdp(url, { username: user.login, password: PASSWORD });
      assert.equal(claimsOf(idToken).locale, profile.locale);
    });
  },
);
