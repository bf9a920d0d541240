import { IdentityProviderUnavailable } from '../../components/identity-provider-unavailable';
import { useIdentityProviderUnavailableReason } from '../../lib/identity-provider-availability';
import { LoginRedirectProcessor } from './login-redirect-processor';

/** /auth/handler: the login-redirect processing screen. */
export function LoginHandlerScreen() {
  const unavailable = useIdentityProviderUnavailableReason();
  if (unavailable) return <IdentityProviderUnavailable />;
  return <LoginRedirectProcessor />;
}
