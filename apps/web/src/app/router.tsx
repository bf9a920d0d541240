import { routes } from '@customer-core/contracts';
import { lazy } from 'react';
import { Navigate, createBrowserRouter } from 'react-router';
import { GenericError } from '../components/generic-error';
import { AppLayout } from '../components/layout/app-layout';
import { SignInScreen } from '../features/sign-in/sign-in-screen';
import { RequireAuth } from '../lib/auth/require-auth';
import { NotFoundScreen } from './routes/not-found-screen';
import { RootErrorScreen } from './routes/root-error-screen';
import { RouteErrorScreen } from './routes/route-error-screen';

// The sign-in screen ships in the entry chunk (it is the first paint); every other screen loads on demand.
const AboutScreen = lazy(() =>
  import('../features/about/about-screen').then((m) => ({ default: m.AboutScreen })),
);
const DashboardScreen = lazy(() =>
  import('../features/dashboard/dashboard-screen').then((m) => ({ default: m.DashboardScreen })),
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
const MagicLinkLandingScreen = lazy(() =>
  import('../features/magic-link-landing/magic-link-landing-screen').then((m) => ({
    default: m.MagicLinkLandingScreen,
  })),
);
// Spec section 2 "on demand" screens, not built yet (see pending-screen.tsx).
const PendingScreen = lazy(() => import('./routes/pending-screen'));

export const router = createBrowserRouter([
  {
    element: <AppLayout />,
    errorElement: <RootErrorScreen />,
    children: [
      {
        errorElement: <RouteErrorScreen />,
        children: [
          { path: routes.root.path, element: <Navigate to={routes.signIn.path} replace /> },
          { path: routes.about.path, element: <AboutScreen /> },
          { path: routes.signIn.path, element: <SignInScreen /> },
          { path: routes.loginCallback.path, element: <LoginCallbackScreen /> },
          { path: routes.loginHandler.path, element: <LoginHandlerScreen /> },
          { path: routes.forgotPassword.path, element: <ForgotPasswordScreen /> },
          { path: routes.magicLink.path, element: <MagicLinkScreen /> },
          { path: routes.magicLinkLanding.path, element: <MagicLinkLandingScreen /> },
          { path: routes.nextStepPreference.path, element: <PendingScreen /> },
          { path: routes.passwordReset.path, element: <PasswordResetScreen /> },
          { path: routes.userRegistration.path, element: <PendingScreen /> },
          { path: routes.emailVerification.path, element: <GenericError /> },
          {
            path: routes.loanCheckoutStart.path,
            element: (
              <RequireAuth>
                <GenericError />
              </RequireAuth>
            ),
          },
          {
            path: routes.dashboard.path,
            element: (
              <RequireAuth>
                <DashboardScreen />
              </RequireAuth>
            ),
          },
          {
            path: `${routes.dashboard.path}loan-checkout/*`,
            element: (
              <RequireAuth>
                <GenericError />
              </RequireAuth>
            ),
          },
          { path: `${routes.directApp.path}*`, element: <GenericError /> },
          { path: '*', element: <NotFoundScreen /> },
        ],
      },
    ],
  },
]);
