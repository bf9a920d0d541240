import { UNKNOWN_DEVICE } from '@customer-core/contracts';
import type { MailWords } from './mail-words.js';

// Wording: who sent it, why, what to do, and what to do if it was not you.

export const enUS = {
  lang: 'en-US',
  greeting: (name) => `Hi ${name},`,
  hello: 'Hello,',
  units: {
    minute: { one: 'minute', other: 'minutes' },
    hour: { one: 'hour', other: 'hours' },
    day: { one: 'day', other: 'days' },
  },
  layout: {
    buttonFallback: 'If the button doesn’t work, copy this link into your browser:',
    sentBy: { before: 'Sent by ', between: ' from ', after: '.' },
    questions: (phone) => `Questions? Call us at ${phone}.`,
    neverAsk: 'We will never ask for your password by e-mail or phone.',
  },

  passwordReset: ({ lender, phone, expiry }) => ({
    subject: `Reset your ${lender} password`,
    preheader: `Use this link within ${expiry} to choose a new password.`,
    heading: 'Reset your password',
    paragraphs: [
      `We received a request to reset the password for your ${lender} account. To choose a new password, follow the link below.`,
      `The link works once and expires in ${expiry}.`,
    ],
    action: 'Choose a new password',
    footnote: `Didn’t ask for this? You can safely ignore this email; your password won’t change. If you think someone else is trying to get into your account, call us at ${phone}.`,
  }),

  magicLink: ({ lender, phone, expiry }) => ({
    subject: `Your ${lender} sign-in link`,
    preheader: `Sign in with one click. The link expires in ${expiry}.`,
    heading: 'Sign in to your account',
    paragraphs: [
      `Someone asked to sign in to your ${lender} account with this email address. If it was you, follow the link below to sign in. No password is needed.`,
      `The link works once and expires in ${expiry}. Please don’t forward this email: anyone with the link can sign in as you.`,
    ],
    action: 'Sign in',
    footnote: `Didn’t ask for this? You can safely ignore this email; nothing happens unless the link is used. If you keep getting these messages, call us at ${phone}.`,
  }),

  invitation: ({ lender, phone, expiry }) => ({
    subject: `Welcome to ${lender}: set up your online account`,
    preheader: `Choose a password to see your loans online. The link expires in ${expiry}.`,
    heading: `Welcome to ${lender}`,
    paragraphs: [
      `We’ve set up an online account for you at ${lender}. There you can see your loans, their balances and next payments, and review and sign your loan documents whenever it suits you.`,
      'To get started, follow the link below and choose a password. Your account will use this email address to sign in.',
      `The link works once and expires in ${expiry}. If it has expired, call us and we’ll send you a new one.`,
    ],
    action: 'Set up my account',
    footnote: `Weren’t expecting this? You can safely ignore this email: no account is created unless the link is used. If you think it reached you by mistake, call us at ${phone}.`,
  }),

  emailVerification: ({ lender, expiry }) => ({
    subject: `Confirm your email address for your ${lender} loan application`,
    preheader: `One click to continue your loan application. The link expires in ${expiry}.`,
    heading: 'Confirm your email address',
    paragraphs: [
      `Thank you for starting a loan application with ${lender}. To continue, please confirm that this email address is yours by following the link below.`,
      `The link expires in ${expiry}. Once your address is confirmed, we’ll be in touch about the next steps.`,
    ],
    action: 'Confirm my email address',
    footnote: `Didn’t start an application? Someone may have typed your address by mistake. You can safely ignore this email: the address is not confirmed unless the link is used.`,
  }),

  passwordChanged: ({ lender, phone, otherSessionsEnded }) => ({
    subject: `Your ${lender} password was changed`,
    preheader: 'Your password was changed from your account page.',
    heading: 'Your password was changed',
    paragraphs: [
      `The password for your ${lender} account was just changed from your account page. From now on, use the new password to sign in.`,
      otherSessionsEnded
        ? 'Your other devices were signed out. You’ll need to sign in on them again.'
        : 'Your other devices are still signed in.',
    ],
    footnote: `Didn’t change your password? Call us right away at ${phone} and we’ll secure your account.`,
  }),

  factorsReset: ({ lender, phone }) => ({
    subject: `The second sign-in steps of your ${lender} account were removed`,
    preheader: 'Our support team removed them at your request.',
    heading: 'Your second sign-in steps were removed',
    paragraphs: [
      `At your request, our support team removed the second steps of your ${lender} sign-in: authenticator apps, email codes, passkeys and recovery codes. Every device was signed out.`,
      'Sign in with your password, then set up a second step again from your account page.',
    ],
    footnote: `Didn’t ask us for this? Call us right away at ${phone} and we’ll secure your account.`,
  }),

  authenticatorAppChanged: ({ lender, phone, change }) => {
    const added = change === 'added';
    return {
      subject: added
        ? `An authenticator app was added to your ${lender} account`
        : `An authenticator app was removed from your ${lender} account`,
      preheader: added
        ? 'An authenticator app was added from your account page.'
        : 'An authenticator app was removed from your account page.',
      heading: added ? 'An authenticator app was added' : 'An authenticator app was removed',
      paragraphs: [
        added
          ? `An authenticator app was just added to your ${lender} account from your account page. From now on, you’ll enter a code from it each time you sign in.`
          : `An authenticator app was just removed from your ${lender} account from your account page. You’ll no longer be asked for a code from it when you sign in.`,
      ],
      footnote: `Didn’t make this change? Call us right away at ${phone} and we’ll secure your account.`,
    };
  },

  passkeyChanged: ({ lender, phone, change }) => {
    const added = change === 'added';
    return {
      subject: added
        ? `A passkey was added to your ${lender} account`
        : `A passkey was removed from your ${lender} account`,
      preheader: added
        ? 'A passkey was added from your account page.'
        : 'A passkey was removed from your account page.',
      heading: added ? 'A passkey was added' : 'A passkey was removed',
      paragraphs: [
        added
          ? `A passkey was just added to your ${lender} account from your account page. You can now use it to sign in, with or without your password.`
          : `A passkey was just removed from your ${lender} account from your account page. It can no longer be used to sign in.`,
      ],
      footnote: `Didn’t make this change? Call us right away at ${phone} and we’ll secure your account.`,
    };
  },

  emailChangeLink: ({ lender, phone, expiry }) => ({
    subject: `Confirm your new ${lender} sign-in email`,
    preheader: `Use this link within ${expiry} to sign in with this address from now on.`,
    heading: 'Confirm your new email address',
    paragraphs: [
      `You asked to sign in to your ${lender} account with this email address. To make the change, follow the link below while you’re signed in.`,
      `The link works once and expires in ${expiry}. Until it’s used, nothing changes.`,
    ],
    action: 'Confirm my new email address',
    footnote: `Didn’t ask for this? You can safely ignore this email: nothing changes unless the link is used. If you keep getting these messages, call us at ${phone}.`,
  }),

  emailChanged: ({ lender, phone }) => ({
    subject: `Your ${lender} sign-in email was changed`,
    preheader: 'Your account now signs in with another email address.',
    heading: 'Your sign-in email was changed',
    paragraphs: [
      `The email address you sign in to your ${lender} account with was just changed from your account page. We’ll send messages about your account to the new address from now on.`,
    ],
    footnote: `Didn’t change it? Call us right away at ${phone} and we’ll secure your account.`,
  }),

  newSignIn: ({ lender, phone, expiry, device, when, network }) => ({
    subject: `New sign-in to your ${lender} account`,
    preheader: `Your account was signed in to from a device it hasn’t been used on before.`,
    heading: 'New sign-in to your account',
    paragraphs: [
      `Your ${lender} account was just signed in to from a device it hasn’t been used on before.`,
      `Device: ${device ?? UNKNOWN_DEVICE}`,
      `When: ${when}`,
      `Approximate network: ${network ?? 'Unknown'}`,
      'If this was you, you don’t need to do anything.',
      `If it wasn’t you, use the link below. It signs your account out on every device and lets you choose a new password. It works once, for ${expiry}.`,
    ],
    action: 'This wasn’t me',
    footnote: `Questions about your account? Call us at ${phone}.`,
  }),
  deviceOn: (browser, system) => `${browser} on ${system}`,

  emailInUse: ({ lender, phone }) => ({
    subject: `Someone tried to use your email address at ${lender}`,
    preheader: 'Another account asked to sign in with this address. Nothing was changed.',
    heading: 'Your email address is already in use',
    paragraphs: [
      `Someone signed in to another ${lender} account asked to sign in with this email address from now on. It already belongs to your account, so nothing was changed.`,
    ],
    footnote: `You don’t need to do anything. If you think someone is trying to get into your account, call us at ${phone}.`,
  }),

  factorCode: ({ lender, phone, code, expiry, purpose }) => {
    const signIn = purpose === 'sign-in';
    return {
      subject: `${code} is your ${lender} ${signIn ? 'sign-in' : 'confirmation'} code`,
      preheader: `Enter this code within ${expiry}.`,
      heading: signIn ? 'Your sign-in code' : 'Confirm your email address',
      paragraphs: [
        signIn
          ? `To finish signing in to your ${lender} account, enter this code: ${code}`
          : `To get sign-in codes by email, enter this code where you asked for it: ${code}`,
        `The code works once and expires in ${expiry}.`,
      ],
      footnote: signIn
        ? `Didn’t try to sign in? Someone may know your password. Change it from your account page, or call us at ${phone}.`
        : `Didn’t ask for this? You can safely ignore this email. If you keep getting these messages, call us at ${phone}.`,
    };
  },

  stepUpCode: ({ lender, phone, code, expiry }) => ({
    subject: `${code} is your ${lender} confirmation code`,
    preheader: `Enter this code within ${expiry}.`,
    heading: 'Confirm it’s you',
    paragraphs: [
      `To confirm it’s you before you sign a document or change your account, enter this code: ${code}`,
      `The code works once, on the page where you asked for it, and expires in ${expiry}.`,
    ],
    footnote: `Didn’t ask for this? Someone may be signed in to your account. Sign out everywhere from your account page, or call us at ${phone}.`,
  }),

  factorNotice: ({ lender, phone, change }) => {
    const notice = {
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
    }[change];
    return {
      subject: notice.subject,
      preheader: `${notice.heading} from your account page.`,
      heading: notice.heading,
      paragraphs: [notice.text],
      footnote: `Didn’t make this change? Call us right away at ${phone} and we’ll secure your account.`,
    };
  },
} satisfies MailWords;
