import { Suspense, lazy, useEffect } from 'react';
import { useAuth } from '../../lib/auth/use-auth';

// The dialog (Radix) is its own chunk, fetched once the borrower is signed in, so that it is at hand
// when needed without weighing on the sign-in screen.
const loadDialog = () => import('./session-expiry-dialog');
const SessionExpiryDialog = lazy(() => loadDialog().then((m) => ({ default: m.SessionExpiryDialog })));

export function SessionExpiryWarning() {
  const { status, expiryWarning } = useAuth();
  useEffect(() => {
    if (status === 'authenticated') void loadDialog();
  }, [status]);
  if (!expiryWarning) return null;
  return (
    <Suspense fallback={null}>
      <SessionExpiryDialog expiresAt={expiryWarning.expiresAt} />
    </Suspense>
  );
}
