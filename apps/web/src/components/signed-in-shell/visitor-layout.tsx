import { Suspense, lazy } from 'react';
import { useAuth } from '../../lib/auth/use-auth';
import { AppLayout } from '../layout/app-layout';
import { Loading } from '../loading';

const SignedInShellLayout = lazy(() =>
  import('./signed-in-layout').then((m) => ({ default: m.SignedInShellLayout })),
);

/**
 * For screens both kinds of visitor reach (About): a signed-in borrower sees it inside the signed-in
 * shell, with its header and navigation back; anyone else inside the public layout.
 */
export function VisitorLayout() {
  const { status } = useAuth();
  if (status === 'unknown') return <Loading />;
  if (status === 'unauthenticated') return <AppLayout />;
  return (
    <Suspense fallback={<Loading />}>
      <SignedInShellLayout />
    </Suspense>
  );
}
