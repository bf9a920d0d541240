import type { MessageDescriptor } from '@lingui/core';
import type { AuthnTransaction } from '@okta/okta-auth-js/authn';

/** What a factor screen may do in the sign-in's factor step. */
export interface FactorStepActions {
  /** An action is under way: fields and buttons wait. */
  pending: boolean;
  /** What went wrong with the last code, shown under its field (in the borrower's language). */
  error: string | undefined;
  /** Shows a problem under the field without calling the provider. */
  fail(message: MessageDescriptor): void;
  /**
   * Runs a step of the transaction: true when it moved on (a SUCCESS leaves the page). A wrong code
   * shows `wrongCode`; an expired step or a lockout goes back to the password.
   */
  step(action: () => Promise<AuthnTransaction>, wrongCode?: MessageDescriptor): Promise<boolean>;
}
