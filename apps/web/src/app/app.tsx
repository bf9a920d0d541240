import { RouterProvider } from 'react-router/dom';
import { SessionExpiryWarning } from '../features/session/session-expiry-warning';
import { AuthProvider } from '../lib/auth/auth-provider';
import { AppErrorBoundary } from './app-error-boundary';
import { router } from './router';

export function App() {
  return (
    <AppErrorBoundary>
      <AuthProvider>
        <RouterProvider router={router} />
        <SessionExpiryWarning />
      </AuthProvider>
    </AppErrorBoundary>
  );
}
