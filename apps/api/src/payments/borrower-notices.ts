import type { BorrowerRepository } from '../borrowers/borrower-repository.js';
import { borrowerLocale, type Directory } from '../identity/directory.js';
import type { MailService } from '../mail/index.js';
import { paymentMail, type PaymentNotice } from './payment-mail.js';

// Tells a borrower about their payments and bank accounts by e-mail, in their language. A message
// is keyed by what it tells, so telling it twice (a retried call, a file read again) sends it once.

export function borrowerNotices({
  borrowers,
  directory,
  mail,
  supportPhone,
}: {
  borrowers: BorrowerRepository;
  directory: Directory;
  mail: MailService;
  supportPhone: string;
}) {
  const send = paymentMail(mail, supportPhone);
  return {
    async tell(borrowerId: string, notice: PaymentNotice, idempotencyKey: string): Promise<void> {
      const borrower = await borrowers.findById(borrowerId);
      if (!borrower) return;
      const locale = await borrowerLocale(directory, borrower);
      await send({ email: borrower.email, firstName: borrower.firstName, locale }, notice, idempotencyKey);
      mail.nudge();
    },
  };
}

export type BorrowerNotices = ReturnType<typeof borrowerNotices>;
