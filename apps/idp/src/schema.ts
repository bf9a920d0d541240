import type { ColumnType, Generated } from 'kysely';

/** timestamptz: read as Date, written as Date (or left to the database's now()). */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface IdpUserTable {
  id: string;
  /** As the user typed it; unique case-insensitively (index on lower(login)). */
  login: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  locale: string;
  time_zone: string;
  email_verified: Generated<boolean>;
  password_changed_at: Timestamp;
  created_at: DefaultTimestamp;
  /** The staff console's groups of a staff user; empty for a borrower. */
  groups: Generated<string[]>;
}

export interface IdpSessionTokenTable {
  /** sha-256 of the token (hex): a database leak gives no usable token. */
  token_hash: string;
  user_id: string;
  expires_at: Timestamp;
  consumed_at: Timestamp | null;
  /** uid of the IdP session that redeemed the token, for its second presentation. */
  session_uid: string | null;
  created_at: DefaultTimestamp;
  /** Comma-separated amr values of the sign-in (null: a password alone). */
  amr: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the user proved who they are (null: when the token was issued). */
  authenticated_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface IdpLoginFailureTable {
  user_id: string;
  client_address: string;
  failures: number;
  last_failure_at: Timestamp;
  locked_until: Timestamp | null;
}

export interface IdpAccountFailureTable {
  user_id: string;
  /** Wrong passwords since the count last started (it starts again after an hour without one). */
  failures: number;
  last_failure_at: Timestamp;
}

export interface IdpRequestCountTable {
  /** What is counted, e.g. authn:203.0.113.7 or authn:2001:db8:1:2::/64 */
  bucket: string;
  window_started_at: Timestamp;
  requests: number;
}

/** Every oidc-provider model (sessions, grants, codes, tokens, interactions) in one table. */
export interface IdpOidcModelTable {
  model: string;
  id: string;
  payload: ColumnType<Record<string, unknown>, string, string>;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  expires_at: Timestamp | null;
  consumed_at: Timestamp | null;
}

export interface IdpKeyTable {
  name: string;
  material: ColumnType<unknown, string, string>;
  created_at: DefaultTimestamp;
}

export interface IdpFactorTable {
  id: string;
  user_id: string;
  /** Okta's factorType, e.g. token:software:totp */
  factor_type: string;
  provider: string;
  /** PENDING_ACTIVATION until its first code is confirmed, then ACTIVE. */
  status: string;
  secret: string | null;
  /** bigint: read as a string by the drivers. */
  last_used_step: ColumnType<string | null, number | null | undefined, number | null>;
  created_at: DefaultTimestamp;
  last_used_at: Timestamp | null;
  /** Wrong first codes taken while pending (an enrolment's ceiling). */
  wrong_codes: Generated<number>;
}

/** The code last e-mailed for an e-mail factor (one row per factor), and its sends in the window. */
export interface IdpFactorCodeTable {
  factor_id: string;
  /** sha-256 of the factor id and the code (hex); null once used. */
  code_hash: string | null;
  expires_at: Timestamp;
  sends: number;
  window_started_at: Timestamp;
}

/** A borrower's unused recovery codes: a used one is deleted. */
export interface IdpRecoveryCodeTable {
  user_id: string;
  /** sha-256 of the code (hex). */
  code_hash: string;
  created_at: DefaultTimestamp;
}

export interface IdpAuthnTransactionTable {
  /** sha-256 of the current state token (hex). */
  state_token_hash: string;
  user_id: string;
  /** Okta's transaction status: MFA_ENROLL, MFA_ENROLL_ACTIVATE, MFA_REQUIRED or MFA_CHALLENGE. */
  status: string;
  /** The factor being activated (MFA_ENROLL_ACTIVATE) or challenged (MFA_CHALLENGE). */
  factor_id: string | null;
  /** How the user proved who they are before this transaction (amr, comma-separated); null: a password. */
  primary_amr: ColumnType<string | null, string | null | undefined, never>;
  expires_at: Timestamp;
  created_at: DefaultTimestamp;
}

export interface IdpSecurityEventTable {
  id: Generated<string>;
  user_id: string;
  /** Okta's System Log event type, e.g. user.session.start. */
  event_type: string;
  outcome: string;
  reason: string | null;
  /** The client's network, written as its first address; never the full address. */
  client_network: string | null;
  user_agent: string | null;
  published: DefaultTimestamp;
}

export interface IdpWebauthnCredentialTable {
  factor_id: string;
  user_id: string;
  /** base64url */
  credential_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** bigint: read as a string by the drivers. */
  sign_count: ColumnType<string, number | undefined, number>;
  /** Comma-separated (usb, internal, hybrid, ...); null when the browser did not say. */
  transports: string | null;
  name: string;
}

export interface IdpWebauthnChallengeTable {
  /** base64url, as handed to the browser. */
  challenge: string;
  /** enrol, verify or passkey */
  purpose: string;
  user_id: string | null;
  factor_id: string | null;
  expires_at: Timestamp;
}

export interface IdpDatabase {
  idp_webauthn_credential: IdpWebauthnCredentialTable;
  idp_webauthn_challenge: IdpWebauthnChallengeTable;
  idp_security_event: IdpSecurityEventTable;
  idp_factor: IdpFactorTable;
  idp_factor_code: IdpFactorCodeTable;
  idp_recovery_code: IdpRecoveryCodeTable;
  idp_authn_transaction: IdpAuthnTransactionTable;
  idp_user: IdpUserTable;
  idp_session_token: IdpSessionTokenTable;
  idp_login_failure: IdpLoginFailureTable;
  idp_account_failure: IdpAccountFailureTable;
  idp_request_count: IdpRequestCountTable;
  idp_oidc_model: IdpOidcModelTable;
  idp_key: IdpKeyTable;
}
