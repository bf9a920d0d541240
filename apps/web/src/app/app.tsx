import { BrowserRouter } from 'react-router';
import { SessionExpiryWarning } from '../features/session/session-expiry-warning';
import { AuthProvider } from '../lib/auth/auth-provider';
import { ToastsProvider } from '../components/toasts/toasts-provider';
import { AppErrorBoundary } from './app-error-boundary';
import { AppRoutes } from './router';

export function App() {
  return (
    <AppErrorBoundary>
      <AuthProvider>
        <ToastsProvider>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
          <SessionExpiryWarning />
        </ToastsProvider>
      </AuthProvider>
    </AppErrorBoundary>
  );
}
