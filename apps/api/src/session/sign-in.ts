import { EMAIL_LINK_AMR } from '@customer-core/contracts/server';
import type { BorrowerIdentity, BorrowerRepository } from '../borrowers/borrower-repository.js';
import type { SignInClient } from '../http/sign-in-client.js';
import type { Directory } from '../identity/directory.js';
import type { ExchangedIdTokenRepository, IdTokenSpending } from './exchanged-id-token-repository.js';
import type { IdTokenProblem, IdTokenSpent, IdTokenUse, IdTokenVerifier } from './id-token-verifier.js';
import type { LookupTokenRepository } from './lookup-token-repository.js';
import type { Sessions } from './sessions.js';
import { staffRoleOf, type StaffGroups } from '../identity/staff-groups.js';

type Spent = Extract<IdTokenSpending, { kind: 'spent' }>;

export type IdTokenSignIn =
  | { kind: 'signed_in'; borrowerId: string; accessToken: string }
  | { kind: 'refused'; problem: IdTokenProblem }
  /** A staff member's identity: it signs in to the staff console, never as a borrower. */
  | { kind: 'staff' }
  | { kind: 'spent'; why: IdTokenSpent; issuer: string };

/**
 * Spends a verified ID token, with the borrower it signs in when known (see
 * ExchangedIdTokenRepository.spend); or why it may not sign in (any more). A token refused here is not
 * spent. The staff console's sign-in spends its ID tokens the same way.
 */
export function idTokenSpender({
  directory,
  exchangedIdTokens,
}: {
  directory: Directory;
  exchangedIdTokens: ExchangedIdTokenRepository;
}) {
  return async function spend(identity: BorrowerIdentity, use: IdTokenUse): Promise<IdTokenSpent | Spent> {
    if (identity.issuer === directory.issuer && (use.sessionId || directory.idTokensNameSessions)) {
      const live = use.sessionId && (await directory.hasSession(use.sessionId, identity.subject));
      if (!live) return 'idp_session_ended';
    }
    const spending = await exchangedIdTokens.spend(use, identity);
    return spending.kind === 'spent' ? spending : spending.kind;
  };
}

/**
 * The ways into a product session besides e-mailed links and registration: the identity provider's
 * ID token (sign-in step 4, spec section 4), and a lookup token a trusted system minted.
 */
export function signIn(deps: {
  idTokens: IdTokenVerifier;
  exchangedIdTokens: ExchangedIdTokenRepository;
  lookupTokens: LookupTokenRepository;
  directory: Directory;
  borrowers: BorrowerRepository;
  sessions: Sessions;
  staffGroups: StaffGroups;
}) {
  const { idTokens, lookupTokens, borrowers, sessions, staffGroups } = deps;
  const spend = idTokenSpender(deps);

  return {
    /**
     * The identity provider's ID token becomes a product access token in a new session.
     *
     * An ID token signs in once, and only while its sign-in lasts: it is refused when it was exchanged
     * before (on any instance), when it was issued before the borrower's cut-off (password change,
     * sign-out everywhere, the other sessions ended), and, for the bundled identity provider, when the
     * IdP session it names (sid) has ended (signed out). A hosted Okta org keeps its sessions to itself: for its ID tokens the
     * first two checks apply, and their short life (Okta: one hour at most) bounds the rest.
     */
    async withIdToken(idToken: string, client: SignInClient): Promise<IdTokenSignIn> {
      const result = await idTokens.verify(idToken);
      if (!result.ok) return { kind: 'refused', problem: result.problem };
      if (staffRoleOf(result.use.groups, staffGroups)) return { kind: 'staff' };
      const spent = await spend(result.identity, result.use);
      if (typeof spent === 'string') return { kind: 'spent', why: spent, issuer: result.identity.issuer };
      // The identity's first sign-in: it takes over the borrower an operator made, or makes one.
      const borrower = spent.borrower ?? (await borrowers.upsertByIdentity(result.identity));
      // How the sign-in began, as the ID token's amr says: an e-mailed link (the provider's 'email'),
      // a passkey alone (hwk without pwd), or else the password.
      const amr = result.use.amr ?? [];
      const method = amr.includes(EMAIL_LINK_AMR[0]!)
        ? 'email_link'
        : amr.includes('hwk') && !amr.includes('pwd')
          ? 'passkey'
          : 'password';
      const accessToken = await sessions.begin(borrower, {
        method,
        userAgent: client.userAgent,
        clientAddress: client.clientAddress,
        deviceId: client.deviceId(),
        idpSessionId: result.use.sessionId,
        // The product token says how and when the borrower signed in, as the ID token did.
        authentication: { amr: result.use.amr, authTime: result.use.authTime },
      });
      return { kind: 'signed_in', borrowerId: borrower.id, accessToken };
    },

    /** A one-time lookup token for a borrower, minted by a trusted system; undefined: no such borrower. */
    async mintLookupToken(borrowerId: string, service: string) {
      const borrower = await borrowers.findById(borrowerId);
      return borrower && lookupTokens.mint(borrower.id, service);
    },

    /** Whoever holds a lookup token exchanges it once for an access token in a new session. */
    async withLookupToken(
      token: string,
      client: SignInClient,
    ): Promise<{ borrowerId: string; accessToken: string } | undefined> {
      const borrowerId = await lookupTokens.consume(token);
      const borrower = borrowerId ? await borrowers.findById(borrowerId) : undefined;
      if (!borrower) return undefined;
      const accessToken = await sessions.begin(borrower, {
        method: 'lookup_token',
        userAgent: client.userAgent,
        clientAddress: client.clientAddress,
        deviceId: client.deviceId(),
      });
      return { borrowerId: borrower.id, accessToken };
    },
  };
}

export type SignIn = ReturnType<typeof signIn>;
