import { createHash, randomBytes } from 'node:crypto';

// One-time tokens (lookup tokens, e-mailed links, invitations, email verification): 256 random bits
// handed out once, of which only the SHA-256 is stored, so a copy of the database redeems nothing.

/** A new token to hand out. */
export const newOneTimeToken = (): string => randomBytes(32).toString('base64url');

/** What is stored of a token, and looked up when one is presented. */
export const oneTimeTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');
