import { Trans } from '@lingui/react/macro';
import type { ReactNode, RefObject } from 'react';

interface FactorScreenProps {
  title: string;
  /** The heading the step moves the focus to when the screen changes. */
  heading: RefObject<HTMLHeadingElement | null>;
  /** The account signing in, where the screen is part of a sign-in: said under the heading. */
  account?: string | undefined;
  /** The words of the way back to the password form. */
  backLabel: string;
  onBack(): void;
  children: ReactNode;
}

/** A screen of the factor step: its heading, whose account it is, its body, and the way back. */
export function FactorScreen({ title, heading, account, backLabel, onBack, children }: FactorScreenProps) {
  return (
    <section className="factor-step" aria-labelledby="factor-step-title" data-testid="factor-step">
      <div className="factor-step__header">
        <h2 id="factor-step-title" ref={heading} tabIndex={-1}>
          {title}
        </h2>
        {account && (
          <p className="factor-step__account" data-testid="factor-step-account">
            <Trans>
              Signing in as <strong>{account}</strong>
            </Trans>
          </p>
        )}
      </div>
      {children}
      {/* A way out, not one of the ways in: a link's look, below the step's own actions. */}
      <button type="button" className="factor-step__link" onClick={onBack}>
        {backLabel}
      </button>
    </section>
  );
}
