import { routes } from '@customer-core/contracts';
import { Suspense, lazy } from 'react';
import { Navigate, createBrowserRouter } from 'react-router';
import { AppLayout } from '../components/layout/app-layout';
import { VisitorLayout } from '../components/layout/visitor-layout';
import { Loading } from '../components/loading';
import { SignInScreen } from '../features/sign-in/sign-in-screen';
import { RequireAuth } from '../lib/auth/require-auth';
import { NotFoundScreen } from './routes/not-found-screen';
import { RootErrorScreen } from './routes/root-error-screen';
import { RouteErrorScreen } from './routes/route-error-screen';

// The sign-in screen ships in the entry chunk (it is the first paint); every other screen loads on demand.
const AboutScreen = lazy(() =>
  import('../features/about/about-screen').then((m) => ({ default: m.AboutScreen })),
);
// The signed-in shell (and its menu library) loads with the first signed-in page.
const SignedInLayout = lazy(() =>
  import('../components/signed-in-shell/signed-in-layout').then((m) => ({ default: m.SignedInLayout })),
);
const DashboardScreen = lazy(() =>
  import('../features/dashboard/dashboard-screen').then((m) => ({ default: m.DashboardScreen })),
);
const LoansScreen = lazy(() =>
  import('../features/dashboard/loans-screen').then((m) => ({ default: m.LoansScreen })),
);
const LoanDetailsScreen = lazy(() =>
  import('../features/loan-details/loan-details-screen').then((m) => ({ default: m.LoanDetailsScreen })),
);
const DocumentsScreen = lazy(() =>
  import('../features/documents/documents-screen').then((m) => ({ default: m.DocumentsScreen })),
);
const DocumentScreen = lazy(() =>
  import('../features/documents/document-screen').then((m) => ({ default: m.DocumentScreen })),
);
const AccountScreen = lazy(() =>
  import('../features/account/account-screen').then((m) => ({ default: m.AccountScreen })),
);
const EmailChangeScreen = lazy(() =>
  import('../features/account/email-change-screen').then((m) => ({ default: m.EmailChangeScreen })),
);
const LoginCallbackScreen = lazy(() =>
  import('../features/login-redirect/login-callback-screen').then((m) => ({
    default: m.LoginCallbackScreen,
  })),
);
const LoginHandlerScreen = lazy(() =>
  import('../features/login-redirect/login-handler-screen').then((m) => ({ default: m.LoginHandlerScreen })),
);
const ForgotPasswordScreen = lazy(() =>
  import('../features/forgot-password/forgot-password-screen').then((m) => ({
    default: m.ForgotPasswordScreen,
  })),
);
const PasswordResetScreen = lazy(() =>
  import('../features/password-reset/password-reset-screen').then((m) => ({
    default: m.PasswordResetScreen,
  })),
);
const MagicLinkScreen = lazy(() =>
  import('../features/magic-link/magic-link-screen').then((m) => ({ default: m.MagicLinkScreen })),
);
const UnrecognizedSignInScreen = lazy(() =>
  import('../features/unrecognized-sign-in/unrecognized-sign-in-screen').then((m) => ({
    default: m.UnrecognizedSignInScreen,
  })),
);
const MagicLinkLandingScreen = lazy(() =>
  import('../features/magic-link-landing/magic-link-landing-screen').then((m) => ({
    default: m.MagicLinkLandingScreen,
  })),
);
const LoanCheckoutScreen = lazy(() =>
  import('../features/loan-checkout/loan-checkout-screen').then((m) => ({ default: m.LoanCheckoutScreen })),
);
const LoanCheckoutStart = lazy(() =>
  import('../features/loan-checkout/loan-checkout-start').then((m) => ({ default: m.LoanCheckoutStart })),
);
const UserRegistrationScreen = lazy(() =>
  import('../features/user-registration/user-registration-screen').then((m) => ({
    default: m.UserRegistrationScreen,
  })),
);
const EmailVerificationScreen = lazy(() =>
  import('../features/email-verification/email-verification-screen').then((m) => ({
    default: m.EmailVerificationScreen,
  })),
);
const EmailVerificationForwarder = lazy(() =>
  import('../features/email-verification/email-verification-forwarder').then((m) => ({
    default: m.EmailVerificationForwarder,
  })),
);
const StartApplicationScreen = lazy(() =>
  import('../features/start-application/start-application-screen').then((m) => ({
    default: m.StartApplicationScreen,
  })),
);
const NextStepPreferenceScreen = lazy(() =>
  import('../features/next-step-preference/next-step-preference-screen').then((m) => ({
    default: m.NextStepPreferenceScreen,
  })),
);

export const router = createBrowserRouter([
  {
    element: <AppLayout />,
    errorElement: <RootErrorScreen />,
    children: [
      {
        errorElement: <RouteErrorScreen />,
        children: [
          { path: routes.root.path, element: <Navigate to={routes.signIn.path} replace /> },
          { path: routes.signIn.path, element: <SignInScreen /> },
          { path: routes.loginCallback.path, element: <LoginCallbackScreen /> },
          { path: routes.loginHandler.path, element: <LoginHandlerScreen /> },
          { path: routes.forgotPassword.path, element: <ForgotPasswordScreen /> },
          { path: routes.magicLink.path, element: <MagicLinkScreen /> },
          { path: routes.magicLinkLanding.path, element: <MagicLinkLandingScreen /> },
          { path: routes.nextStepPreference.path, element: <NextStepPreferenceScreen /> },
          { path: routes.passwordReset.path, element: <PasswordResetScreen /> },
          { path: routes.unrecognizedSignIn.path, element: <UnrecognizedSignInScreen /> },
          { path: routes.userRegistration.path, element: <UserRegistrationScreen /> },
          { path: routes.emailVerification.path, element: <EmailVerificationForwarder /> },
          {
            path: routes.loanCheckoutStart.path,
            element: (
              <RequireAuth>
                <LoanCheckoutStart />
              </RequireAuth>
            ),
          },
          { path: routes.startApplication.path, element: <StartApplicationScreen /> },
          { path: routes.directAppEmailVerification.path, element: <EmailVerificationScreen /> },
          { path: '*', element: <NotFoundScreen /> },
        ],
      },
    ],
  },
  {
    // Screens for every visitor, in the layout that fits who they are.
    element: <VisitorLayout />,
    errorElement: <RootErrorScreen />,
    children: [
      {
        errorElement: <RouteErrorScreen />,
        children: [{ path: routes.about.path, element: <AboutScreen /> }],
      },
    ],
  },
  {
    // The signed-in area (/ui/dashboard/...): its own shell, for a signed-in borrower only.
    element: (
      <Suspense fallback={<Loading />}>
        <SignedInLayout />
      </Suspense>
    ),
    errorElement: <RootErrorScreen />,
    children: [
      {
        errorElement: <RouteErrorScreen />,
        children: [
          { path: routes.dashboard.path, element: <DashboardScreen /> },
          { path: routes.loans.path, element: <LoansScreen /> },
          { path: routes.loanDetails.path, element: <LoanDetailsScreen /> },
          { path: routes.loanCheckout.path, element: <LoanCheckoutScreen /> },
          { path: routes.documents.path, element: <DocumentsScreen /> },
          { path: routes.document.path, element: <DocumentScreen /> },
          { path: routes.account.path, element: <AccountScreen /> },
          { path: routes.emailChange.path, element: <EmailChangeScreen /> },
        ],
      },
    ],
  },
]);
