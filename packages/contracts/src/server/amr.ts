/**
 * The amr of a sign-in by e-mailed link (its mailbox proven). RFC 8176 registers no value for it: this
 * one is the bundled provider's own, and the API reads it to tell such a sign-in apart.
 */
export const EMAIL_LINK_AMR = ['email'];
