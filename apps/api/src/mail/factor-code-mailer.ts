import { randomUUID } from 'node:crypto';
import { DEFAULT_LOCALE, matchLocale } from '@customer-core/contracts';
import type { FactorCodeEmailInput } from './factor-templates.js';
import type { MailService } from './index.js';

/**
 * The bundled identity provider's e-mailed codes, through the portal's outbox (the dev mailbox
 * outside production, SMTP otherwise): the provider has no mail of its own, and services.ts hands it this
 * as its mailer. The code is in the message as a reset link's token is; the outbox never logs bodies.
 */
export function factorCodeMailer(
  mail: MailService,
): (code: Omit<FactorCodeEmailInput, 'locale'> & { to: string; locale?: string }) => Promise<void> {
  return async ({ to, firstName, code, expiresInMinutes, purpose, locale }) => {
    await mail.enqueue({
      ...mail.templates.factorCodeEmail({
        firstName,
        code,
        expiresInMinutes,
        purpose,
        // The provider's user's locale, as its profile writes it ("es_US").
        locale: matchLocale(locale) ?? DEFAULT_LOCALE,
      }),
      to,
      idempotencyKey: `factor-code:${randomUUID()}`,
    });
    mail.nudge();
  };
}
