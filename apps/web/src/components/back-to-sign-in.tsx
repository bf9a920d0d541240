import { routes } from '@customer-core/contracts';
import { Link } from 'react-router';

/** The way back from every getting-back-in screen, at the foot of the card. */
export function BackToSignIn() {
  return (
    <p className="form-screen__footer">
      <Link to={routes.signIn.path}>Back to sign in</Link>
    </p>
  );
}
