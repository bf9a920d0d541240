import { paymentAmount, paymentDay, returnReasonOf, type Locale } from '@customer-core/contracts';
import { oneLine, wordsOf, type MailService } from '../mail/index.js';

// The messages of payments, in the borrower's language: a receipt when a payment is scheduled, a
// word when it is settled, returned or cancelled, autopay turned on or off and its reminder, and a
// bank account added or removed. None carries a link or more of an account than its last four digits.

export interface PaymentFacts {
  reference: string;
  amountCents: number;
  effectiveOn: string;
  loanReference: string;
  last4: string;
  bankName: string | null;
}

export type PaymentNotice =
  | { kind: 'payment-scheduled' | 'payment-settled' | 'payment-cancelled'; payment: PaymentFacts }
  | { kind: 'payment-returned'; payment: PaymentFacts; returnCode: string }
  | { kind: 'autopay-on' | 'autopay-off'; loanReference: string; last4: string | null }
  | { kind: 'autopay-reminder'; payment: Omit<PaymentFacts, 'reference'> }
  | { kind: 'bank-account-added' | 'bank-account-removed'; last4: string; bankName: string | null };

interface Words {
  subject: string;
  heading: string;
  paragraphs: string[];
}

const account = (last4: string, bankName: string | null) => `••${last4}${bankName ? ` (${bankName})` : ''}`;

const RETURN_WORDS_ES: Record<string, string> = {
  R01: 'No había suficiente dinero en la cuenta.',
  R09: 'El dinero de la cuenta aún no estaba disponible.',
  R02: 'La cuenta está cerrada.',
  R03: 'El banco no encontró la cuenta.',
  R04: 'El número de cuenta no es válido.',
  R16: 'La cuenta está congelada.',
  R20: 'La cuenta no permite este tipo de pago.',
  R08: 'Se ordenó detener el pago.',
  R05: 'El banco indica que la cuenta no es de empresa.',
  R07: 'El titular retiró la autorización.',
  R10: 'El titular le dijo a su banco que no lo autorizó.',
  R11: 'El titular le dijo a su banco que no lo autorizó.',
  R29: 'La empresa le dijo a su banco que no lo autorizó.',
};

function englishWords(notice: PaymentNotice, phone: string): Words {
  const l: Locale = 'en-US';
  switch (notice.kind) {
    case 'payment-scheduled': {
      const p = notice.payment;
      return {
        subject: `Payment scheduled: ${paymentAmount(l, p.amountCents)} on ${paymentDay(l, p.effectiveOn)}`,
        heading: 'Your payment is scheduled',
        paragraphs: [
          `We’ll debit ${paymentAmount(l, p.amountCents)} from account ${account(p.last4, p.bankName)} on ${paymentDay(l, p.effectiveOn)} toward loan ${p.loanReference}.`,
          `Your payment reference is ${p.reference}. You can cancel the payment in the portal until its cut-off.`,
        ],
      };
    }
    case 'payment-settled': {
      const p = notice.payment;
      return {
        subject: `Payment received: ${paymentAmount(l, p.amountCents)}`,
        heading: 'Your payment is applied',
        paragraphs: [
          `Your payment ${p.reference} of ${paymentAmount(l, p.amountCents)} has been applied to loan ${p.loanReference}.`,
        ],
      };
    }
    case 'payment-cancelled': {
      const p = notice.payment;
      return {
        subject: `Payment cancelled: ${paymentAmount(l, p.amountCents)}`,
        heading: 'Your payment is cancelled',
        paragraphs: [
          `Payment ${p.reference} of ${paymentAmount(l, p.amountCents)} on ${paymentDay(l, p.effectiveOn)} for loan ${p.loanReference} is cancelled. Nothing will be debited for it.`,
        ],
      };
    }
    case 'payment-returned': {
      const p = notice.payment;
      return {
        subject: `Payment returned: ${paymentAmount(l, p.amountCents)}`,
        heading: 'Your bank returned a payment',
        paragraphs: [
          `Your bank returned payment ${p.reference} of ${paymentAmount(l, p.amountCents)} for loan ${p.loanReference}. ${returnReasonOf(notice.returnCode).words}`,
          `The amount is still owed. Sign in to make the payment again, or call us at ${phone}.`,
        ],
      };
    }
    case 'autopay-on':
      return {
        subject: `Autopay is on for loan ${notice.loanReference}`,
        heading: 'Autopay is on',
        paragraphs: [
          `Each instalment of loan ${notice.loanReference} will be debited from account ••${notice.last4 ?? ''} on its due date, or the next banking day. We’ll email you a few days before each debit.`,
          'You can turn autopay off in the portal at any time before a debit’s cut-off.',
        ],
      };
    case 'autopay-off':
      return {
        subject: `Autopay is off for loan ${notice.loanReference}`,
        heading: 'Autopay is off',
        paragraphs: [
          `Instalments of loan ${notice.loanReference} will no longer be debited automatically. Remember to pay each one by its due date.`,
        ],
      };
    case 'autopay-reminder': {
      const p = notice.payment;
      return {
        subject: `Autopay: ${paymentAmount(l, p.amountCents)} on ${paymentDay(l, p.effectiveOn)}`,
        heading: 'Your next autopay debit',
        paragraphs: [
          `On ${paymentDay(l, p.effectiveOn)} we’ll debit ${paymentAmount(l, p.amountCents)} from account ${account(p.last4, p.bankName)} for loan ${p.loanReference}.`,
          'To stop it, turn autopay off in the portal before the cut-off the day before.',
        ],
      };
    }
    case 'bank-account-added':
    case 'bank-account-removed': {
      const added = notice.kind === 'bank-account-added';
      return {
        subject: added
          ? 'A bank account was added to your account'
          : 'A bank account was removed from your account',
        heading: added ? 'Bank account added' : 'Bank account removed',
        paragraphs: [
          added
            ? `Bank account ${account(notice.last4, notice.bankName)} was added to your account. We’ll send two small deposits to it to confirm it’s yours.`
            : `Bank account ${account(notice.last4, notice.bankName)} was removed from your account.`,
          `If you didn’t do this, call us at ${phone} right away.`,
        ],
      };
    }
  }
}

function spanishWords(notice: PaymentNotice, phone: string): Words {
  const l: Locale = 'es-US';
  switch (notice.kind) {
    case 'payment-scheduled': {
      const p = notice.payment;
      return {
        subject: `Pago programado: ${paymentAmount(l, p.amountCents)} el ${paymentDay(l, p.effectiveOn)}`,
        heading: 'Su pago está programado',
        paragraphs: [
          `Debitaremos ${paymentAmount(l, p.amountCents)} de la cuenta ${account(p.last4, p.bankName)} el ${paymentDay(l, p.effectiveOn)} para el préstamo ${p.loanReference}.`,
          `La referencia de su pago es ${p.reference}. Puede cancelarlo en el portal hasta su hora límite.`,
        ],
      };
    }
    case 'payment-settled': {
      const p = notice.payment;
      return {
        subject: `Pago recibido: ${paymentAmount(l, p.amountCents)}`,
        heading: 'Su pago está aplicado',
        paragraphs: [
          `Su pago ${p.reference} de ${paymentAmount(l, p.amountCents)} se aplicó al préstamo ${p.loanReference}.`,
        ],
      };
    }
    case 'payment-cancelled': {
      const p = notice.payment;
      return {
        subject: `Pago cancelado: ${paymentAmount(l, p.amountCents)}`,
        heading: 'Su pago está cancelado',
        paragraphs: [
          `El pago ${p.reference} de ${paymentAmount(l, p.amountCents)} del ${paymentDay(l, p.effectiveOn)} para el préstamo ${p.loanReference} está cancelado. No se debitará nada por él.`,
        ],
      };
    }
    case 'payment-returned': {
      const p = notice.payment;
      return {
        subject: `Pago devuelto: ${paymentAmount(l, p.amountCents)}`,
        heading: 'Su banco devolvió un pago',
        paragraphs: [
          `Su banco devolvió el pago ${p.reference} de ${paymentAmount(l, p.amountCents)} del préstamo ${p.loanReference}. ${RETURN_WORDS_ES[notice.returnCode] ?? 'El banco devolvió el pago.'}`,
          `Aún debe ese monto. Inicie sesión para pagar de nuevo, o llámenos al ${phone}.`,
        ],
      };
    }
    case 'autopay-on':
      return {
        subject: `El pago automático está activado para el préstamo ${notice.loanReference}`,
        heading: 'Pago automático activado',
        paragraphs: [
          `Cada cuota del préstamo ${notice.loanReference} se debitará de la cuenta ••${notice.last4 ?? ''} en su fecha de vencimiento o el siguiente día hábil bancario. Le escribiremos unos días antes de cada débito.`,
          'Puede desactivar el pago automático en el portal en cualquier momento antes de la hora límite de un débito.',
        ],
      };
    case 'autopay-off':
      return {
        subject: `El pago automático está desactivado para el préstamo ${notice.loanReference}`,
        heading: 'Pago automático desactivado',
        paragraphs: [
          `Las cuotas del préstamo ${notice.loanReference} ya no se debitarán automáticamente. Recuerde pagar cada una antes de su vencimiento.`,
        ],
      };
    case 'autopay-reminder': {
      const p = notice.payment;
      return {
        subject: `Pago automático: ${paymentAmount(l, p.amountCents)} el ${paymentDay(l, p.effectiveOn)}`,
        heading: 'Su próximo débito automático',
        paragraphs: [
          `El ${paymentDay(l, p.effectiveOn)} debitaremos ${paymentAmount(l, p.amountCents)} de la cuenta ${account(p.last4, p.bankName)} para el préstamo ${p.loanReference}.`,
          'Para detenerlo, desactive el pago automático en el portal antes de la hora límite del día anterior.',
        ],
      };
    }
    case 'bank-account-added':
    case 'bank-account-removed': {
      const added = notice.kind === 'bank-account-added';
      return {
        subject: added
          ? 'Se agregó una cuenta bancaria a su cuenta'
          : 'Se quitó una cuenta bancaria de su cuenta',
        heading: added ? 'Cuenta bancaria agregada' : 'Cuenta bancaria quitada',
        paragraphs: [
          added
            ? `Se agregó la cuenta bancaria ${account(notice.last4, notice.bankName)} a su cuenta. Le enviaremos dos pequeños depósitos para confirmar que es suya.`
            : `Se quitó la cuenta bancaria ${account(notice.last4, notice.bankName)} de su cuenta.`,
          `Si no fue usted, llámenos de inmediato al ${phone}.`,
        ],
      };
    }
  }
}

/** Writes a payment message to the outbox, in `trx` when given (with the change it tells). */
export function paymentMail(mail: Pick<MailService, 'enqueue' | 'templates'>, phone: string) {
  return async (
    to: { email: string; firstName: string | null; locale: Locale },
    notice: PaymentNotice,
    idempotencyKey: string,
  ) => {
    const words = to.locale === 'es-US' ? spanishWords(notice, phone) : englishWords(notice, phone);
    const name = to.firstName ? oneLine(to.firstName, 60) : '';
    const greeting = name ? wordsOf(to.locale).greeting(name) : wordsOf(to.locale).hello;
    const rendered = mail.templates.renderEmail({
      preheader: words.paragraphs[0]!,
      heading: words.heading,
      paragraphs: [greeting, ...words.paragraphs],
      footnote: wordsOf(to.locale).layout.questions(phone),
      locale: to.locale,
    });
    await mail.enqueue({
      to: to.email,
      subject: words.subject,
      kind: notice.kind,
      idempotencyKey,
      ...rendered,
    });
  };
}

export type PaymentMail = ReturnType<typeof paymentMail>;
