import { routes } from '@customer-core/contracts';
import { Suspense, lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { AppLayout } from '../components/layout/app-layout';
import { withConsoleMessages, withPortalMessages } from '../i18n/catalogs';
import { VisitorLayout } from '../components/signed-in-shell/visitor-layout';
import { Loading } from '../components/loading';
import { SignInScreen } from '../features/sign-in/sign-in-screen';
import { dashboardScreen, homeLanding, signedInLayout } from '../features/dashboard/preload-home';
import { RequireAuth } from '../components/require-auth';
import { loadAuthCheck } from '../lib/auth/auth-check';
import { preloadable } from '../lib/preloadable';
import { peekReturnPath } from '../lib/return-path';
import { NotFoundScreen } from './routes/not-found-screen';
import { RouteErrorBoundary } from '../components/route-error-boundary';
import { RootErrorScreen } from './routes/root-error-screen';
import { RouteErrorScreen } from './routes/route-error-screen';

/** A screen loaded on demand, shown once the portal's words for it are there too. */
const screen = (importer: Parameters<typeof lazy>[0]) => lazy(() => withPortalMessages(importer()));

// The sign-in screen ships in the entry chunk (it is the first paint); every other screen loads on demand.
const AboutScreen = screen(() =>
  import('../features/about/about-screen').then((m) => ({ default: m.AboutScreen })),
);
// The signed-in shell (and its menu library) loads with the first signed-in page.
// (Both are also fetched as a sign-in finishes, when it leads home: features/dashboard/preload-home.ts.)
const SignedInLayout = signedInLayout.lazy((m) => m.SignedInLayout);
const DashboardScreen = dashboardScreen.lazy((m) => m.DashboardScreen);
const LoansScreen = screen(() =>
  import('../features/dashboard/loans-screen').then((m) => ({ default: m.LoansScreen })),
);
const LoanDetailsScreen = screen(() =>
  import('../features/loan-details/loan-details-screen').then((m) => ({ default: m.LoanDetailsScreen })),
);
// A loan's payments and autopay, on its page: loaded with it, but only there (the loan page shows them).
const LoanPaymentSections = lazy(() =>
  import('../features/payments/loan-payment-sections').then((m) => ({ default: m.LoanPaymentSections })),
);
const PayLoanScreen = screen(() =>
  import('../features/payments/pay-loan-screen').then((m) => ({ default: m.PayLoanScreen })),
);
const DocumentsScreen = screen(() =>
  import('../features/documents/documents-screen').then((m) => ({ default: m.DocumentsScreen })),
);
const DocumentScreen = screen(() =>
  import('../features/documents/document-screen').then((m) => ({ default: m.DocumentScreen })),
);
const AccountScreen = screen(() =>
  import('../features/account/account-screen').then((m) => ({ default: m.AccountScreen })),
);
const BankAccountsScreen = screen(() =>
  import('../features/bank-accounts/bank-accounts-screen').then((m) => ({ default: m.BankAccountsScreen })),
);
const EmailChangeScreen = screen(() =>
  import('../features/account/email-change-screen').then((m) => ({ default: m.EmailChangeScreen })),
);
const loginCallbackScreen = preloadable(() =>
  withPortalMessages(import('../features/login-redirect/login-callback-screen')),
);
const LoginCallbackScreen = loginCallbackScreen.lazy((m) => m.LoginCallbackScreen);
/**
 * Where a password sign-in leads (the identity provider's redirect back to the login callback, which
 * finishes it with the whole client, then the address the borrower asked for, most often the home):
 * fetched once the password was accepted, while the sign-in's tokens are obtained, so that those pages
 * find their code in the browser's cache instead of fetching it in turn. (Not earlier: the sign-in
 * route's weight until the password leaves stays what the sign-in needs.)
 */
const afterSignIn = () => {
  void loginCallbackScreen.load().catch(() => undefined);
  // On demand: the sign-in route's first load stays without the identity provider's configuration.
  void import('../lib/identity-provider').then(
    (m) => m.preloadRedirectClient(),
    () => undefined,
  );
  void homeLanding.code(peekReturnPath());
  // The check the callback's guard runs first: the page arrives with the product session stored.
  void loadAuthCheck().catch(() => undefined);
};
const LoginHandlerScreen = screen(() =>
  import('../features/login-redirect/login-handler-screen').then((m) => ({ default: m.LoginHandlerScreen })),
);
const ForgotPasswordScreen = screen(() =>
  import('../features/forgot-password/forgot-password-screen').then((m) => ({
    default: m.ForgotPasswordScreen,
  })),
);
const PasswordResetScreen = screen(() =>
  import('../features/password-reset/password-reset-screen').then((m) => ({
    default: m.PasswordResetScreen,
  })),
);
const MagicLinkScreen = screen(() =>
  import('../features/magic-link/magic-link-screen').then((m) => ({ default: m.MagicLinkScreen })),
);
const UnrecognizedSignInScreen = screen(() =>
  import('../features/unrecognized-sign-in/unrecognized-sign-in-screen').then((m) => ({
    default: m.UnrecognizedSignInScreen,
  })),
);
const MagicLinkLandingScreen = screen(() =>
  import('../features/magic-link-landing/magic-link-landing-screen').then((m) => ({
    default: m.MagicLinkLandingScreen,
  })),
);
const LoanCheckoutScreen = screen(() =>
  import('../features/loan-checkout/loan-checkout-screen').then((m) => ({ default: m.LoanCheckoutScreen })),
);
const LoanCheckoutStart = screen(() =>
  import('../features/loan-checkout/loan-checkout-start').then((m) => ({ default: m.LoanCheckoutStart })),
);
const UserRegistrationScreen = screen(() =>
  import('../features/user-registration/user-registration-screen').then((m) => ({
    default: m.UserRegistrationScreen,
  })),
);
const EmailVerificationScreen = screen(() =>
  import('../features/email-verification/email-verification-screen').then((m) => ({
    default: m.EmailVerificationScreen,
  })),
);
const EmailVerificationForwarder = screen(() =>
  import('../features/email-verification/email-verification-forwarder').then((m) => ({
    default: m.EmailVerificationForwarder,
  })),
);
const StartApplicationScreen = screen(() =>
  import('../features/start-application/start-application-screen').then((m) => ({
    default: m.StartApplicationScreen,
  })),
);
const NextStepPreferenceScreen = screen(() =>
  import('../features/next-step-preference/next-step-preference-screen').then((m) => ({
    default: m.NextStepPreferenceScreen,
  })),
);
// The staff console (/console/...): its own chunks, catalogue and layout, loaded only there. This is the
// one line of the borrower's code that names it; nothing else of the portal imports it.
const ConsoleApp = lazy(() =>
  withConsoleMessages(import('../console/console-app')).then((m) => ({ default: m.ConsoleApp })),
);

// Declarative routes (<Routes>), not a data router: the portal uses no loaders or actions, and the
// data router's code would weigh about 15 KB more in the sign-in route's first load. Each layout and
// each screen has its error boundary, as the data router's errorElement did.
const rootError = (error: unknown) => <RootErrorScreen error={error} />;
const routeError = (error: unknown) => <RouteErrorScreen error={error} />;

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RouteErrorBoundary fallback={rootError} />}>
        <Route element={<AppLayout />}>
          <Route element={<RouteErrorBoundary fallback={routeError} />}>
            <Route path={routes.root.path} element={<Navigate to={routes.signIn.path} replace />} />
            <Route path={routes.signIn.path} element={<SignInScreen afterSignIn={afterSignIn} />} />
            <Route path={routes.loginCallback.path} element={<LoginCallbackScreen landing={homeLanding} />} />
            <Route path={routes.loginHandler.path} element={<LoginHandlerScreen landing={homeLanding} />} />
            <Route path={routes.forgotPassword.path} element={<ForgotPasswordScreen />} />
            <Route path={routes.magicLink.path} element={<MagicLinkScreen />} />
            <Route path={routes.magicLinkLanding.path} element={<MagicLinkLandingScreen />} />
            <Route path={routes.nextStepPreference.path} element={<NextStepPreferenceScreen />} />
            <Route path={routes.passwordReset.path} element={<PasswordResetScreen />} />
            <Route path={routes.unrecognizedSignIn.path} element={<UnrecognizedSignInScreen />} />
            <Route path={routes.userRegistration.path} element={<UserRegistrationScreen />} />
            <Route path={routes.emailVerification.path} element={<EmailVerificationForwarder />} />
            <Route
              path={routes.loanCheckoutStart.path}
              element={
                <RequireAuth>
                  <LoanCheckoutStart />
                </RequireAuth>
              }
            />
            <Route path={routes.directAppEmailVerification.path} element={<EmailVerificationScreen />} />
          </Route>
        </Route>
        {/* Screens for every visitor, in the layout that fits who they are. */}
        <Route element={<VisitorLayout />}>
          <Route element={<RouteErrorBoundary fallback={routeError} />}>
            <Route path={routes.about.path} element={<AboutScreen />} />
            <Route path={routes.startApplication.path} element={<StartApplicationScreen />} />
            {/* An address the portal does not have: a signed-in borrower keeps the shell. */}
            <Route path="*" element={<NotFoundScreen />} />
          </Route>
        </Route>
        {/* The signed-in area (/ui/dashboard/...): its own shell, for a signed-in borrower only. */}
        <Route
          element={
            <Suspense fallback={<Loading />}>
              <SignedInLayout />
            </Suspense>
          }
        >
          <Route element={<RouteErrorBoundary fallback={routeError} />}>
            <Route path={routes.dashboard.path} element={<DashboardScreen />} />
            <Route path={routes.loans.path} element={<LoansScreen />} />
            <Route
              path={routes.loanDetails.path}
              element={<LoanDetailsScreen payments={LoanPaymentSections} />}
            />
            <Route path={routes.payLoan.path} element={<PayLoanScreen />} />
            <Route path={routes.loanCheckout.path} element={<LoanCheckoutScreen />} />
            <Route path={routes.documents.path} element={<DocumentsScreen />} />
            <Route path={routes.document.path} element={<DocumentScreen />} />
            <Route path={routes.account.path} element={<AccountScreen />} />
            <Route path={routes.bankAccounts.path} element={<BankAccountsScreen />} />
            <Route path={routes.emailChange.path} element={<EmailChangeScreen />} />
          </Route>
        </Route>
        {/* The staff console: its own layout and routes, under its own error boundaries. */}
        <Route
          path={`${routes.console.path}/*`}
          element={
            <Suspense fallback={<Loading />}>
              <ConsoleApp />
            </Suspense>
          }
        />
      </Route>
    </Routes>
  );
}
