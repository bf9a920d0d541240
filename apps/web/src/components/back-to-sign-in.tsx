import { routes } from '@customer-core/contracts';
import { Trans } from '@lingui/react/macro';
import { Link } from 'react-router';

/** The way back from every getting-back-in screen, at the foot of the card. */
export function BackToSignIn() {
  return (
    <p className="form-screen__footer">
      <Link to={routes.signIn.path}>
        <Trans>Back to sign in</Trans>
      </Link>
    </p>
  );
}
