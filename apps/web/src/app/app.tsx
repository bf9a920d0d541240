import { RouterProvider } from 'react-router/dom';
import { AuthProvider } from '../lib/auth/auth-provider';
import { AppErrorBoundary } from './app-error-boundary';
import { router } from './router';

export function App() {
  return (
    <AppErrorBoundary>
      <AuthProvider>
        <RouterProvider router={router} />
      </AuthProvider>
    </AppErrorBoundary>
  );
}
