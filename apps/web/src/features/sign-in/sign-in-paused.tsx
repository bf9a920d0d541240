import { routes } from '@customer-core/contracts';
import { Trans } from '@lingui/react/macro';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';

/**
 * Under "User could not be authenticated." once the form has counted enough failures for the address
 * (lib/auth/sign-in-failures.ts): password sign-in is paused for a while, and the ways in that still
 * work. The same words for every address. It takes the focus, in the form's live region, so it is heard.
 */
export function SignInPaused() {
  const message = useRef<HTMLDivElement>(null);
  useEffect(() => message.current?.focus(), []);
  return (
    <div ref={message} className="sign-in-paused" tabIndex={-1} data-testid="sign-in-paused">
      <p className="sign-in-paused__title">
        <Trans>Password sign-in is paused for a while.</Trans>
      </p>
      <p>
        <Trans>
          After several tries that didn’t work, we’ve paused signing in with a password to this account to
          keep it safe. You can still sign in with a link we email you, or set a new password.
        </Trans>
      </p>
      <ul className="sign-in-paused__ways">
        <li>
          <Link to={routes.magicLink.path}>
            <Trans>Email Only Sign In</Trans>
          </Link>
        </li>
        <li>
          <Link to={routes.forgotPassword.path}>
            <Trans>Forgot Password?</Trans>
          </Link>
        </li>
      </ul>
    </div>
  );
}
