import { createHash, randomBytes } from 'node:crypto';

// One-time tokens, wherever they are kept (lookup tokens, e-mailed links, invitations, e-mail
// verification, the identity provider's session and state tokens): 256 random bits handed out once,
// of which only the SHA-256 is stored, so a copy of the database redeems nothing. A token is consumed
// by one statement that sets consumed_at (or deletes it) where its hash matches, it is unconsumed and
// unexpired by the database's clock: of any number of concurrent presentations exactly one wins.

/** A new token to hand out. */
export const newOneTimeToken = (): string => randomBytes(32).toString('base64url');

/** What is stored of a token, and looked up when one is presented. */
export const oneTimeTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');
