import { useLocation } from 'react-router';
import { IdentityProviderUnavailable } from '../../components/identity-provider-unavailable';
import { RequireAuth } from '../../components/require-auth';
import { useIdentityProviderUnavailableReason } from '../../lib/identity-provider-availability';
import { CallbackWelcome } from './callback-welcome';
import { LoginRedirectProcessor, type LandingPreload } from './login-redirect-processor';
import { isAuthorizationResponse } from './process-login-redirect';

/** /auth/callback, the identity provider's redirect URI. */
export function LoginCallbackScreen({ landing }: { landing?: LandingPreload }) {
  const { search } = useLocation();
  const unavailable = useIdentityProviderUnavailableReason();
  if (unavailable) return <IdentityProviderUnavailable />;
  if (isAuthorizationResponse(search)) return <LoginRedirectProcessor landing={landing} />;
  return (
    <RequireAuth>
      <CallbackWelcome />
    </RequireAuth>
  );
}
