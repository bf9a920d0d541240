import { randomUUID } from 'node:crypto';
import type { FactorCodeEmailInput } from './factor-templates.js';
import type { MailService } from './index.js';

/**
 * The bundled identity provider's e-mailed codes, through the portal's outbox (the dev mailbox
 * outside production, SMTP otherwise): the provider has no mail of its own, and services.ts hands it this
 * as its mailer. The code is in the message as a reset link's token is; the outbox never logs bodies.
 */
export function factorCodeMailer(
  mail: MailService,
): (code: FactorCodeEmailInput & { to: string }) => Promise<void> {
  return async ({ to, firstName, code, expiresInMinutes, purpose }) => {
    await mail.enqueue({
      ...mail.templates.factorCodeEmail({ firstName, code, expiresInMinutes, purpose }),
      to,
      idempotencyKey: `factor-code:${randomUUID()}`,
    });
    mail.nudge();
  };
}
