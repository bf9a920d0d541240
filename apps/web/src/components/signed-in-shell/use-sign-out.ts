import { useState } from 'react';
import { useAuth } from '../../lib/auth/use-auth';

/** Signs the borrower out; the guard then leads to sign-in, which confirms it. */
export function useSignOut() {
  const { signOut } = useAuth();
  const [signingOut, setSigningOut] = useState(false);
  const start = () => {
    if (signingOut) return;
    setSigningOut(true);
    void signOut();
  };
  return { signingOut, signOut: start };
}
