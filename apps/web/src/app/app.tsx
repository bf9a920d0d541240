import { I18nProvider } from '@lingui/react';
import { i18n } from '../i18n/catalogs';
import { SessionExpiryWarning } from '../features/session/session-expiry-warning';
import { AuthProvider } from '../lib/auth/auth-provider';
import { ToastsProvider } from '../components/toasts/toasts-provider';
import { AppErrorBoundary } from './app-error-boundary';
import { PortalRouter } from '../lib/navigation/portal-router';
import { AppRoutes } from './router';

export function App() {
  return (
    <I18nProvider i18n={i18n}>
      <AppErrorBoundary>
        <AuthProvider>
          <ToastsProvider>
            <PortalRouter>
              <AppRoutes />
            </PortalRouter>
            <SessionExpiryWarning />
          </ToastsProvider>
        </AuthProvider>
      </AppErrorBoundary>
    </I18nProvider>
  );
}
