import { routes } from '@customer-core/contracts';
import { Navigate, useParams } from 'react-router';

/**
 * Spec section 2, the direct-app e-mail verification forwarder: the e-mailed link's address, passed on
 * to the application's verification page in place (no history entry, so Back leaves both).
 */
export function EmailVerificationForwarder() {
  const { token = '' } = useParams();
  return <Navigate to={routes.directAppEmailVerification.href({ token })} replace />;
}
