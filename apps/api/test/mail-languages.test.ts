import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LOCALES } from '@customer-core/contracts';
import { mailTemplates, type MailService, type TemplatedEmail } from '../src/mail/index.js';
import { factorCodeMailer } from '../src/mail/factor-code-mailer.js';

// Every message the portal sends, in each of its languages: the recipient's. English is the words the
// other mail tests read; here, that Spanish is complete (no English left in any part), and that counts
// and dates come from Intl in the message's language.

const brand = {
  lenderName: 'Main Street Funding',
  publicUrl: 'https://portal.lender.example',
  supportPhone: '(800) 555-0142',
};
const templates = mailTemplates(brand);
const SIGNED_IN_AT = new Date('2026-03-04T17:06:07Z');

/** One of every message (every variant), in a language. */
function everyMessage(locale: (typeof LOCALES)[number]): TemplatedEmail[] {
  const firstName = 'Ana';
  return [
    templates.passwordResetEmail({
      firstName,
      resetUrl: '/auth/password-reset/t',
      expiresInMinutes: 30,
      locale,
    }),
    templates.magicLinkEmail({
      firstName,
      signInUrl: '/auth/magic-link-landing/t',
      expiresInMinutes: 15,
      locale,
    }),
    templates.invitationEmail({
      firstName,
      registrationUrl: '/user-registration/t',
      expiresInMinutes: 10080,
      locale,
    }),
    templates.emailVerificationEmail({
      verificationUrl: '/app/email-verification/t',
      expiresInMinutes: 1440,
      locale,
    }),
    templates.passwordChangedEmail({ firstName, otherSessionsEnded: true, locale }),
    templates.passwordChangedEmail({ firstName, otherSessionsEnded: false, locale }),
    ...(['added', 'removed'] as const).flatMap((change) => [
      templates.secondFactorChangedEmail({ firstName, change, locale }),
      templates.secondFactorChangedEmail({ firstName, change, factor: 'passkey', locale }),
    ]),
    templates.emailChangeLinkEmail({
      firstName,
      confirmUrl: '/ui/dashboard/account/email-change/t',
      expiresInMinutes: 60,
      locale,
    }),
    templates.emailChangedEmail({ firstName, locale }),
    templates.emailInUseEmail({ locale }),
    templates.newSignInEmail({
      firstName,
      device: null,
      signedInAt: SIGNED_IN_AT,
      approximateAddress: null,
      reportUrl: '/auth/unrecognized-sign-in/t',
      expiresInMinutes: 1440,
      locale,
    }),
    ...(['sign-in', 'enrol', 'step-up'] as const).map((purpose) =>
      templates.factorCodeEmail({ firstName, code: '123456', expiresInMinutes: 5, purpose, locale }),
    ),
    ...(['email-codes-added', 'email-codes-removed', 'recovery-codes-generated'] as const).map((change) =>
      templates.factorNoticeEmail({ firstName, change, locale }),
    ),
  ];
}

// Words of the English messages and layout that no Spanish message may keep.
const ENGLISH = [
  /\bHi\b/,
  /\bHello\b/,
  /\byour\b/i,
  /\bminutes?\b/,
  /\bhours?\b/,
  /\bdays?\b/,
  /\bexpires\b/,
  /\bsign in\b/i,
  /Questions\?/,
  /\bcall us\b/i,
  /If the button doesn’t work/,
  /Sent by/,
  /\bUnknown\b/,
];

describe('e-mails in the recipient’s language', () => {
  it('has every message in every language, each kind the same in both', () => {
    const [english, ...others] = LOCALES.map(everyMessage);
    for (const messages of others)
      assert.deepEqual(
        messages.map((m) => m.kind),
        english!.map((m) => m.kind),
      );
  });

  it('leaves no English in a Spanish message: subject, HTML part or text part', () => {
    for (const message of everyMessage('es-US')) {
      // The lender's name and the links are the lender's own: not words of the message.
      const strip = (part: string) =>
        part
          .replaceAll(brand.lenderName, '')
          .replace(/https:\/\/[^\s"<]+/g, '')
          .replace(/<[^>]*>/g, ' ');
      for (const [part, value] of Object.entries({
        subject: message.subject,
        html: strip(message.html),
        text: strip(message.text),
      }))
        for (const english of ENGLISH)
          assert.ok(!english.test(value), `${message.kind} ${part} keeps ${String(english)}: ${value}`);
      assert.match(message.html, /<html lang="es-US">/, message.kind);
      assert.ok(message.text.includes('Nunca le pediremos su contraseña'), message.kind);
      assert.ok(message.html.includes('¿Tiene preguntas? Llámenos al'), message.kind);
    }
  });

  it('greets the reader by name, or without one, in their language', () => {
    const named = templates.passwordChangedEmail({
      firstName: 'Ana',
      otherSessionsEnded: true,
      locale: 'es-US',
    });
    assert.ok(named.text.includes('\n\nHola, Ana:\n\n'), named.text);
    const unnamed = templates.passwordChangedEmail({
      firstName: null,
      otherSessionsEnded: true,
      locale: 'es-US',
    });
    assert.ok(unnamed.text.includes('\n\nHola:\n\n'), unnamed.text);
    const xss = templates.passwordChangedEmail({
      firstName: '<b>Ana</b>',
      otherSessionsEnded: true,
      locale: 'es-US',
    });
    assert.ok(xss.html.includes('Hola, &lt;b&gt;Ana&lt;/b&gt;:'), 'the name is escaped in Spanish too');
  });

  it('counts durations with Intl.PluralRules in the message’s language', () => {
    const expiry = (minutes: number, locale: 'en-US' | 'es-US') =>
      templates.passwordResetEmail({ resetUrl: '/r', expiresInMinutes: minutes, locale }).text;
    for (const [minutes, english, spanish] of [
      [1, '1 minute.', '1 minuto.'],
      [30, '30 minutes.', '30 minutos.'],
      [60, '1 hour.', '1 hora.'],
      [1440, '24 hours.', '24 horas.'],
      [4320, '3 days.', '3 días.'],
    ] as const) {
      assert.ok(expiry(minutes, 'en-US').includes(`expires in ${english}`), english);
      assert.ok(expiry(minutes, 'es-US').includes(`caduca en ${spanish}`), spanish);
    }
    const code = (minutes: number) =>
      templates.factorCodeEmail({ code: '1', expiresInMinutes: minutes, purpose: 'sign-in', locale: 'es-US' })
        .text;
    assert.ok(code(1).includes('caduca en 1 minuto.'));
    assert.ok(code(5).includes('caduca en 5 minutos.'));
  });

  it('writes when a new sign-in happened in the message’s language, and names an unknown device in it', () => {
    const message = templates.newSignInEmail({
      device: null,
      signedInAt: SIGNED_IN_AT,
      approximateAddress: null,
      reportUrl: '/r',
      expiresInMinutes: 1440,
      locale: 'es-US',
    });
    const when = new Intl.DateTimeFormat('es-US', {
      dateStyle: 'full',
      timeStyle: 'short',
      timeZone: 'UTC',
    }).format(SIGNED_IN_AT);
    assert.ok(when.startsWith('miércoles'), when);
    assert.ok(message.text.includes(`Cuándo: ${when} UTC`), message.text);
    assert.ok(message.text.includes('Dispositivo: Dispositivo desconocido'));
    assert.ok(message.text.includes('Red aproximada: Desconocida'));
    assert.ok(message.text.includes('No fui yo:\nhttps://portal.lender.example/r'));
  });

  it('mails the identity provider’s codes in the language of its user’s profile (Okta’s es_US)', async () => {
    const queued: Array<{ subject: string; text: string }> = [];
    const mail = {
      templates,
      enqueue: async (message: { subject: string; text: string }) => {
        queued.push(message);
        return { id: 'm', created: true };
      },
      nudge: () => undefined,
    } as unknown as MailService;
    const send = factorCodeMailer(mail);
    await send({
      to: 'ana@example.com',
      firstName: 'Ana',
      code: '246810',
      expiresInMinutes: 5,
      purpose: 'sign-in',
      locale: 'es_US',
    });
    await send({
      to: 'ana@example.com',
      firstName: 'Ana',
      code: '246810',
      expiresInMinutes: 5,
      purpose: 'enrol',
      locale: 'en_US',
    });
    await send({
      to: 'ana@example.com',
      firstName: 'Ana',
      code: '246810',
      expiresInMinutes: 5,
      purpose: 'enrol',
      locale: 'fr_FR',
    });
    assert.equal(
      queued[0]!.subject,
      '246810 es su código de verificación para iniciar sesión en Main Street Funding',
    );
    assert.equal(queued[1]!.subject, '246810 is your Main Street Funding confirmation code');
    assert.equal(queued[2]!.subject, queued[1]!.subject, 'a language the portal does not speak: English');
  });
});
