import { Trans } from '@lingui/react/macro';
import { SupportPhone } from '../support-phone';

/** A hosted org asked for a kind of verification these screens do not handle: named, and whom to call. */
export function UnsupportedFactor({ asked }: { asked: string }) {
  return (
    <p className="factor-step__intro" data-testid="factor-unsupported">
      <Trans>
        Your sign-in asks for a kind of verification this portal doesn’t support ({asked}). Call us at{' '}
        <SupportPhone /> and we’ll help you sign in.
      </Trans>
    </p>
  );
}
