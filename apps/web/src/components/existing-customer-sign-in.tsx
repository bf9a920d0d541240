import { routes } from '@customer-core/contracts';
import { Trans } from '@lingui/react/macro';
import { Link } from 'react-router';

/** The way to sign in from the application screens, at the foot of the card. */
export function ExistingCustomerSignIn() {
  return (
    <p className="form-screen__footer">
      <Trans>
        Already a customer? <Link to={routes.signIn.path}>Sign in</Link>
      </Trans>
    </p>
  );
}
