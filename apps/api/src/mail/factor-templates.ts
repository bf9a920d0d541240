import { emailRenderer, oneLine, type MailBrand } from './render.js';

/** templates.ts's TemplatedEmail, named here too: that file spreads these templates into its own. */
interface TemplatedEmail {
  kind: string;
  subject: string;
  text: string;
  html: string;
}

// The messages of email codes and recovery codes: a code to sign in or to confirm the address, and
// the notices of a change made from the account page.

export interface FactorCodeEmailInput {
  firstName?: string | null;
  code: string;
  expiresInMinutes: number;
  /**
   * `sign-in`: the second step of a sign-in; `enrol`: turning email codes on; `step-up`: confirming
   * it's them before a sensitive action (signing a document, changing the sign-in address).
   */
  purpose: 'sign-in' | 'enrol' | 'step-up';
}

export interface FactorNoticeEmailInput {
  firstName?: string | null;
  change: 'email-codes-added' | 'email-codes-removed' | 'recovery-codes-generated';
}

export function factorMailTemplates(brand: MailBrand) {
  const { renderEmail } = emailRenderer(brand);
  const lender = brand.lenderName;
  const greeting = (firstName?: string | null) => {
    const name = firstName ? oneLine(firstName, 60) : '';
    return name ? `Hi ${name},` : 'Hello,';
  };
  const minutes = (n: number) => (n === 1 ? '1 minute' : `${n} minutes`);

  /** The code itself is the message: in the subject too, so a phone's notification shows it. */
  function factorCodeEmail({ firstName, code, expiresInMinutes, purpose }: FactorCodeEmailInput) {
    if (purpose === 'step-up') return stepUpCodeEmail({ firstName, code, expiresInMinutes });
    const signIn = purpose === 'sign-in';
    return {
      kind: signIn ? 'factor-code-sign-in' : 'factor-code-enrol',
      subject: `${code} is your ${lender} ${signIn ? 'sign-in' : 'confirmation'} code`,
      ...renderEmail({
        preheader: `Enter this code within ${minutes(expiresInMinutes)}.`,
        heading: signIn ? 'Your sign-in code' : 'Confirm your email address',
        paragraphs: [
          greeting(firstName),
          signIn
            ? `To finish signing in to your ${lender} account, enter this code: ${code}`
            : `To get sign-in codes by email, enter this code where you asked for it: ${code}`,
          `The code works once and expires in ${minutes(expiresInMinutes)}.`,
        ],
        footnote: signIn
          ? `Didn’t try to sign in? Someone may know your password. Change it from your account page, or call us at ${brand.supportPhone}.`
          : `Didn’t ask for this? You can safely ignore this email. If you keep getting these messages, call us at ${brand.supportPhone}.`,
      }),
    } satisfies TemplatedEmail;
  }

  function stepUpCodeEmail({ firstName, code, expiresInMinutes }: Omit<FactorCodeEmailInput, 'purpose'>) {
    return {
      kind: 'factor-code-step-up',
      subject: `${code} is your ${lender} confirmation code`,
      ...renderEmail({
        preheader: `Enter this code within ${minutes(expiresInMinutes)}.`,
        heading: 'Confirm it’s you',
        paragraphs: [
          greeting(firstName),
          `To confirm it’s you before you sign a document or change your account, enter this code: ${code}`,
          `The code works once, on the page where you asked for it, and expires in ${minutes(expiresInMinutes)}.`,
        ],
        footnote: `Didn’t ask for this? Someone may be signed in to your account. Sign out everywhere from your account page, or call us at ${brand.supportPhone}.`,
      }),
    } satisfies TemplatedEmail;
  }

  const notices = {
    'email-codes-added': {
      subject: `Email codes were turned on for your ${lender} account`,
      heading: 'Email codes were turned on',
      text: `Sign-in codes by email were just turned on for your ${lender} account from your account page. You can now sign in with a code we send to this address.`,
    },
    'email-codes-removed': {
      subject: `Email codes were turned off for your ${lender} account`,
      heading: 'Email codes were turned off',
      text: `Sign-in codes by email were just turned off for your ${lender} account from your account page. We’ll no longer send you codes to sign in.`,
    },
    'recovery-codes-generated': {
      subject: `New recovery codes were made for your ${lender} account`,
      heading: 'New recovery codes were made',
      text: `A new set of recovery codes was just made for your ${lender} account from your account page. Any codes you had before no longer work.`,
    },
  } as const;

  function factorNoticeEmail({ firstName, change }: FactorNoticeEmailInput) {
    const notice = notices[change];
    return {
      kind: change,
      subject: notice.subject,
      ...renderEmail({
        preheader: `${notice.heading} from your account page.`,
        heading: notice.heading,
        paragraphs: [greeting(firstName), notice.text],
        footnote: `Didn’t make this change? Call us right away at ${brand.supportPhone} and we’ll secure your account.`,
      }),
    } satisfies TemplatedEmail;
  }

  return { factorCodeEmail, factorNoticeEmail };
}
