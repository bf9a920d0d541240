// Every route of the portal (spec section 2), one definition for the router, links and the server.

export type Params<P extends string> = string extends P
  ? Record<string, string>
  : P extends `${string}:${infer Name}/${infer Rest}`
    ? { [K in Name]: string } & Params<`/${Rest}`>
    : P extends `${string}:${infer Name}`
      ? { [K in Name]: string }
      : Record<never, never>;

export interface Route<P extends string> {
  /** The pattern, as the router matches it. */
  path: P;
  /** A concrete address; every parameter is URI-encoded. */
  href(params: Params<P>): string;
}

/** A path pattern with `:name` parameters and its concrete-address builder (portal routes and API paths). */
export function route<P extends string>(path: P): Route<P> {
  return {
    path,
    href: (params) =>
      path.replace(/:(\w+)/g, (_, name: string) =>
        encodeURIComponent((params as Record<string, string>)[name] ?? ''),
      ),
  };
}

export const routes = {
  root: route('/'),
  about: route('/about'),
  signIn: route('/auth/login'),
  loginCallback: route('/auth/callback'),
  loginHandler: route('/auth/handler'),
  forgotPassword: route('/auth/forgot-password'),
  magicLink: route('/auth/magic-link'),
  magicLinkLanding: route('/auth/magic-link-landing/:token'),
  nextStepPreference: route('/next-step-preference'),
  passwordReset: route('/auth/password-reset/:token'),
  /** The "This wasn't me" link of a new-sign-in e-mail. */
  unrecognizedSignIn: route('/auth/unrecognized-sign-in/:token'),
  userRegistration: route('/user-registration/:token'),
  emailVerification: route('/app/email-verification/:token'),
  loanCheckoutStart: route('/doc-checkout/loan/:loanId/start'),
  dashboard: route('/ui/dashboard/'),
  loans: route('/ui/dashboard/loans'),
  loanDetails: route('/ui/dashboard/loans/:loanId'),
  /** Make a payment toward a loan: amount, day, account, authorization, then its confirmation. */
  payLoan: route('/ui/dashboard/loans/:loanId/pay'),
  /** The borrower's bank accounts: add one, verify it with the micro-deposits, remove one. */
  bankAccounts: route('/ui/dashboard/bank-accounts'),
  /** Every document of every loan; one document in a reading view. */
  documents: route('/ui/dashboard/documents'),
  document: route('/ui/dashboard/documents/:documentId'),
  loanCheckout: route('/ui/dashboard/loan-checkout/:loanId'),
  /** The borrower's own account: sign-in sessions and devices. */
  account: route('/ui/dashboard/account'),
  /** The link e-mailed to a new sign-in address: confirms the change (signed in). */
  emailChange: route('/ui/dashboard/account/email-change/:token'),
  directApp: route('/ui/direct-app/'),
  startApplication: route('/ui/direct-app/start-application'),
  directAppEmailVerification: route('/ui/direct-app/email-verification/:token'),
  /** The staff console: a part of the web app borrowers never load (its pages: consoleRoutes). */
  console: route('/console'),
} as const;

/** Rows of the account page an address can open (`${routes.account.path}#recovery-codes`). */
export const ACCOUNT_ROWS = { recoveryCodes: 'recovery-codes' } as const;

/** Where a borrower lands after signing in when no other address was requested. */
export const DEFAULT_LANDING_PATH = routes.dashboard.path;
