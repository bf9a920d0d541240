/**
 * When a borrower is asked for a second factor at sign-in:
 * - `off`: never; the password alone signs in, whatever factors the borrower has.
 * - `optional`: when they have one; borrowers may enrol one from their account.
 * - `required`: always; a borrower without one enrols one at their next sign-in.
 */
export const MFA_POLICIES = ['off', 'optional', 'required'] as const;
export type MfaPolicy = (typeof MFA_POLICIES)[number];
export const DEFAULT_MFA_POLICY: MfaPolicy = 'optional';
