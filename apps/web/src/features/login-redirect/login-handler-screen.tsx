import { IdentityProviderUnavailable } from '../../components/identity-provider-unavailable';
import { useIdentityProviderUnavailableReason } from '../../lib/identity-provider-availability';
import { LoginRedirectProcessor, type LandingPreload } from './login-redirect-processor';

/** /auth/handler: the login-redirect processing screen. */
export function LoginHandlerScreen({ landing }: { landing?: LandingPreload }) {
  const unavailable = useIdentityProviderUnavailableReason();
  if (unavailable) return <IdentityProviderUnavailable />;
  return <LoginRedirectProcessor landing={landing} />;
}
