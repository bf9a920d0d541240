import { MULTI_FACTOR_AMR, type StaffMember, type StaffRole } from '@customer-core/contracts';
import type { IdTokenProblem, IdTokenSpent, IdTokenVerifier } from '../session/id-token-verifier.js';
import type { Directory } from '../identity/directory.js';
import type { ProductTokens } from '../session/product-token.js';
import type { idTokenSpender } from '../session/sign-in.js';
import type { ConsoleSession, ConsoleSessionRepository } from './console-session-repository.js';
import { staffRoleOf, type StaffGroups } from '../identity/staff-groups.js';

export type ConsoleSignIn =
  | { kind: 'signed_in'; accessToken: string; staff: StaffMember; session: ConsoleSession }
  | { kind: 'refused'; problem: IdTokenProblem }
  | { kind: 'spent'; why: IdTokenSpent }
  /** Not in a staff group (a borrower), or signed in without a second factor. */
  | { kind: 'not_staff'; email: string }
  | { kind: 'no_second_factor'; email: string; role: StaffRole };

export const staffMemberOf = (session: ConsoleSession, authTime: number): StaffMember => ({
  email: session.email,
  name: session.name,
  role: session.role,
  signedInAt: new Date(authTime * 1000).toISOString(),
  expiresAt: session.expiresAt.toISOString(),
});

/**
 * The console's sign-in: the identity provider's ID token of a staff member (a groups claim naming a
 * role) whose sign-in used a second factor becomes a console token, once, in a short session of its
 * own. Checked before the token is spent, so a borrower's token sent here still signs them in there.
 */
export function consoleSignIn(deps: {
  idTokens: IdTokenVerifier;
  spend: ReturnType<typeof idTokenSpender>;
  sessions: ConsoleSessionRepository;
  tokens: ProductTokens;
  groups: StaffGroups;
  directory: Pick<Directory, 'issuer' | 'staff'>;
}) {
  const { idTokens, spend, sessions, tokens, groups, directory } = deps;

  /**
   * The groups that make the role. Where the portal owns the staff users (the bundled provider), their
   * groups now: an ID token minted before an admin took the role away names it still. A hosted org's
   * token is trusted for its short life (its admins change groups there).
   */
  const currentGroups = async (issuer: string, subject: string, claimed: string[] | null) =>
    issuer === directory.issuer && directory.staff ? directory.staff.groupsOf(subject) : claimed;

  return async function signIn(idToken: string, clientAddress: string | null): Promise<ConsoleSignIn> {
    const verified = await idTokens.verify(idToken);
    if (!verified.ok) return { kind: 'refused', problem: verified.problem };
    const { identity, use } = verified;
    const role = staffRoleOf(await currentGroups(identity.issuer, identity.subject, use.groups), groups);
    if (!role) return { kind: 'not_staff', email: identity.email };
    if (!use.amr?.includes(MULTI_FACTOR_AMR))
      return { kind: 'no_second_factor', email: identity.email, role };
    const spent = await spend(identity, use);
    if (typeof spent === 'string') return { kind: 'spent', why: spent };

    const tokenSession = tokens.newSession(Date.now(), { amr: use.amr, authTime: use.authTime });
    const name = [identity.firstName, identity.lastName].filter(Boolean).join(' ') || identity.email;
    const subject = { borrowerId: identity.subject, email: identity.email, externalIds: [] };
    const { token, claims } = tokens.issue(subject, tokenSession);
    const session = await sessions.begin({
      id: tokenSession.sid,
      issuer: identity.issuer,
      subject: identity.subject,
      email: identity.email,
      name,
      role,
      expiresAt: new Date(claims.exp * 1000),
      clientAddress,
    });
    return {
      kind: 'signed_in',
      accessToken: token,
      staff: staffMemberOf(session, claims.auth_time),
      session,
    };
  };
}

export type ConsoleSignInService = ReturnType<typeof consoleSignIn>;
