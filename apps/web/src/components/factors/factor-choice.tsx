import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { AuthnTransaction } from '@okta/okta-auth-js/authn';

/** The factor types the sign-in screens walk a borrower through (Okta's names, and the bundled provider's own). */
export const TOTP = 'token:software:totp';
export const EMAIL = 'email';
export const RECOVERY_CODE = 'recovery_code';
export const WEBAUTHN = 'webauthn';

export type Factor = Record<string, unknown> & {
  factorType?: string;
  profile?: { email?: string };
  enroll?: (options?: object) => Promise<AuthnTransaction>;
  verify?: (options?: object) => Promise<AuthnTransaction>;
};

const CHOICES: Record<string, MessageDescriptor> = {
  [WEBAUTHN]: msg`Use your passkey`,
  [TOTP]: msg`Use your authenticator app`,
  [EMAIL]: msg`Email me a code`,
  [RECOVERY_CODE]: msg`Use a recovery code`,
};

/** Under each way, what it takes, so that the ways can be told apart at a glance. */
const HINTS: Record<string, (factor: Factor) => MessageDescriptor> = {
  [WEBAUTHN]: () => msg`Your fingerprint, face or screen lock`,
  [TOTP]: () => msg`The 6-digit code your app shows`,
  [EMAIL]: (factor) => {
    const address = shownAddress(factor);
    return address ? msg`We’ll send it to ${address}` : msg`We’ll send it to your email`;
  },
  [RECOVERY_CODE]: () => msg`One of the codes you saved`,
};

/**
 * The factors of MFA_REQUIRED these screens can verify, in the order they are offered; passkeys only
 * where they work (a hosted org's passkeys belong to its own domain).
 */
export function choosableFactors(factors: Factor[], passkeys: boolean): Factor[] {
  return Object.keys(CHOICES)
    .filter((type) => passkeys || type !== WEBAUTHN)
    .flatMap((type) => factors.filter((factor) => factor.factorType === type && factor.verify));
}

/** "d...n@example.com" as Okta masks it, with a real ellipsis. */
export const shownAddress = (factor: { profile?: { email?: string } } | undefined) =>
  (factor?.profile?.email ?? '').replace('...', '…');

/** MFA_REQUIRED with more than one way: one button each, named by the way, with what it takes. */
export function FactorChoice({
  factors,
  disabled,
  onChoose,
}: {
  factors: Factor[];
  disabled: boolean;
  onChoose(factor: Factor): void;
}) {
  const { i18n } = useLingui();
  return (
    <>
      <p className="factor-step__intro">
        <Trans>Choose how to confirm it’s you.</Trans>
      </p>
      <ul className="factor-choice" data-testid="factor-choice">
        {factors.map((factor) => {
          const type = factor.factorType ?? '';
          const id = `factor-choice-${type.replace(/[^a-z]/gi, '-')}`;
          const choice = CHOICES[type];
          const hint = HINTS[type]?.(factor);
          return (
            <li key={type}>
              <button
                type="button"
                className="factor-choice__option"
                disabled={disabled}
                aria-labelledby={`${id}-name`}
                aria-describedby={`${id}-hint`}
                onClick={() => onChoose(factor)}
              >
                <span className="factor-choice__name" id={`${id}-name`}>
                  {choice && i18n._(choice)}
                </span>
                <span className="factor-choice__hint" id={`${id}-hint`}>
                  {hint && i18n._(hint)}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </>
  );
}

/** Back to the choice of ways, from one of them. */
export function AnotherWay({ onClick, disabled }: { onClick(): void; disabled: boolean }) {
  return (
    <button type="button" className="factor-step__link" onClick={onClick} disabled={disabled}>
      <Trans>Choose another way</Trans>
    </button>
  );
}
