import { RouterProvider } from 'react-router/dom';
import { SessionExpiryWarning } from '../features/session/session-expiry-warning';
import { AuthProvider } from '../lib/auth/auth-provider';
import { ToastsProvider } from '../lib/toasts/toasts-provider';
import { AppErrorBoundary } from './app-error-boundary';
import { router } from './router';

export function App() {
  return (
    <AppErrorBoundary>
      <AuthProvider>
        <ToastsProvider>
          <RouterProvider router={router} />
          <SessionExpiryWarning />
        </ToastsProvider>
      </AuthProvider>
    </AppErrorBoundary>
  );
}
