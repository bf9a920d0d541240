import { z } from 'zod';

// Email codes as a second factor on the account page (Okta's `email` factor).

/** Adding email codes: the code went to the sign-in address, and waits for its entry. */
export const EmailCodeEnrolmentSchema = z.object({
  factorId: z.string(),
  /** The address the code went to: the borrower's own sign-in address. */
  sentTo: z.string(),
});
export type EmailCodeEnrolment = z.infer<typeof EmailCodeEnrolmentSchema>;
