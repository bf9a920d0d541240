import type { JsonWebKey } from 'node:crypto';
import type { ColumnType, Generated, Kysely } from 'kysely';

// Tables owned by the API (the identity provider keeps its own).

export interface BorrowerTable {
  id: Generated<string>;
  email: string;
  first_name: string | null;
  last_name: string | null;
  /** The identity that signs this borrower in: issuer + subject of the identity provider. */
  /** Null until the borrower first signs in or registers (an operator may create them before). */
  idp_issuer: string | null;
  idp_subject: string | null;
  /** Identifiers of this borrower in the lender's other systems (the token's external_ids). */
  external_ids: ColumnType<string[], string[] | undefined, string[]>;
  /** Access tokens issued before this are refused (password change, "sign out everywhere"). */
  tokens_not_before: Date | null;
  /** ID tokens issued before this are refused too (the borrower's other sessions were ended). */
  id_tokens_not_before: Date | null;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, Date>;
  /** Why all of the borrower's data is kept (no erasure while set), and since when. */
  legal_hold_reason: string | null;
  legal_hold_since: Date | null;
}

export interface ProductSigningKeyTable {
  kid: string;
  /** PKCS#8 PEM of the ES256 private key. */
  private_key_pem: string;
  public_jwk: ColumnType<JsonWebKey, string, never>;
  created_at: ColumnType<Date, never, never>;
}

export interface RevokedSessionTable {
  sid: string;
  borrower_id: string;
  /** When the session could no longer be refreshed anyway; the row may be purged after it. */
  expires_at: Date;
  revoked_at: ColumnType<Date, never, never>;
}

export interface ExchangedIdTokenTable {
  /** sha-256 (hex) of the issuer and jti, or of the signed part of the token when it has no jti. */
  token_hash: string;
  /** When the ID token expires (with the verifier's clock tolerance); the row may be purged after it. */
  expires_at: Date;
  exchanged_at: ColumnType<Date, never, never>;
}

export interface ProductSessionTable {
  /** The session id (the tokens' sid). */
  sid: string;
  borrower_id: string;
  /** The refresh generation of the session's current token; every older one is spent. */
  generation: number;
  /** When the borrower signed in (the tokens' auth_time). */
  created_at: Date;
  /** The latest refresh. */
  last_active_at: ColumnType<Date, Date | undefined, Date>;
  /** How the session began; null for sessions begun before sign-ins were recorded. */
  method: ColumnType<string | null, string | null | undefined, never>;
  /** The client's User-Agent header as sent at sign-in (parsed when shown). */
  user_agent: ColumnType<string | null, string | null | undefined, never>;
  /** The client's network only (an IPv4 /24 or IPv6 /64), never the full address. */
  client_network: ColumnType<string | null, string | null | undefined, never>;
  /** The identity provider's session (the ID token's sid) this sign-in came from, if any. */
  idp_session_id: ColumnType<string | null, string | null | undefined, never>;
}

export interface LookupTokenTable {
  /** sha-256 of the token; the token itself is never stored. */
  token_hash: string;
  borrower_id: string;
  /** Which trusted system or operator minted it. */
  minted_by: string;
  expires_at: Date;
  consumed_at: Date | null;
  created_at: ColumnType<Date, never, never>;
}

export type MailStatus = 'pending' | 'sending' | 'sent' | 'dead';

export interface MailOutboxTable {
  id: Generated<string>;
  /** Unique: enqueueing the same key twice is a no-op. Also sent along, so a receiver can de-duplicate. */
  idempotency_key: string;
  /** What the message is, e.g. 'password-reset' (for logs and the dead-letter view). */
  kind: string;
  recipient: string;
  subject: string;
  /** Cleared (null) once the message is sent (bodies carry one-time links); a dead one keeps them to be sent again. */
  text_body: string | null;
  html_body: string | null;
  status: ColumnType<MailStatus, MailStatus | undefined, MailStatus>;
  /** Delivery attempts started, counted when a worker claims the message. */
  attempts: ColumnType<number, number | undefined, number>;
  /** A pending message is due from this instant on. */
  next_attempt_at: ColumnType<Date, Date | undefined, Date>;
  /** A claimed ('sending') message whose lease ended (its worker stopped) is claimed again. */
  claimed_until: Date | null;
  /** Which claim holds the message; a worker only settles its own claim. */
  claim_token: string | null;
  last_error: string | null;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, Date>;
  sent_at: Date | null;
}

export interface DevMailboxMessageTable {
  id: Generated<string>;
  /** Delivery order (newest first on the page). */
  seq: ColumnType<string, never, never>;
  /** The message's Message-ID: a message delivered twice is stored once. */
  message_id: string;
  kind: string;
  sender: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  created_at: ColumnType<Date, never, never>;
}

export type LinkPurpose = 'password_reset' | 'magic_link' | 'email_change' | 'unrecognized_sign_in';

export interface LinkTokenTable {
  /** Names one issue of a token (it changes when a new token replaces an unconsumed one): mail idempotency. */
  id: string;
  /** sha-256 of the token; the token itself is never stored. */
  token_hash: string;
  purpose: LinkPurpose;
  /** The bundled identity provider's user id. */
  idp_user_id: string;
  /** Where a sign-in link leads afterwards: a same-origin path, or null. */
  return_to: string | null;
  /** An email change link's new address; null for other purposes. */
  new_email: ColumnType<string | null, string | null | undefined, never>;
  expires_at: Date;
  consumed_at: Date | null;
  created_at: ColumnType<Date, never, Date>;
}

export interface LinkRequestCountTable {
  /** 'address:<sha-256 of the e-mail address>' or 'client:<client address>'. */
  bucket: string;
  window_started_at: Date;
  requests: number;
}

export type LoanStatusValue = 'ACTIVE' | 'PAST DUE' | 'PAID' | 'CLOSED LOST' | 'HIDDEN';

/** bigint columns arrive as strings from pg (numbers from PGlite): read them through Number(). */
type Bigint = ColumnType<string | number, number, number>;

export interface LoanTable {
  id: Generated<string>;
  borrower_id: string;
  reference: string;
  product: string;
  amount_cents: Bigint;
  balance_cents: Bigint;
  status: LoanStatusValue;
  /** A calendar day; select it as text (`next_payment_due::text`) so no time zone shifts it. */
  next_payment_due: ColumnType<string | Date | null, string | null | undefined, string | null>;
  next_payment_cents: ColumnType<string | number | null, number | null | undefined, number | null>;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, never, Date>;
}

/** Calendar days: select them as text (`due_on::text`) so no time zone shifts them. */
type CalendarDay = ColumnType<string | Date, string, string>;

export interface LoanInstalmentTable {
  loan_id: string;
  due_on: CalendarDay;
  amount_cents: Bigint;
  paid_on: ColumnType<string | Date | null, string | null | undefined, string | null>;
  /** The settled payment that paid it (a late return opens it again). */
  paid_by_payment: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface LoanDocumentTable {
  id: Generated<string>;
  loan_id: string;
  position: number;
  title: string;
  description: string;
  body: string;
  requires_signature: boolean;
  reviewed_at: Date | null;
  signed_at: Date | null;
  signature_name: string | null;
  /** The client address the signature came from (the proxy-aware request address). */
  signed_from: string | null;
  /** SHA-256 (hex) of the body as signed. */
  signed_body_sha256: string | null;
  /** The signed PDF, written once on first download. */
  signed_pdf: Uint8Array | null;
  /** The account's name and email address when it signed (null before these were recorded). */
  signer_name: string | null;
  signer_email: string | null;
  /** How the signer had signed in: the access token's amr (RFC 8176), and when (auth_time). */
  signer_amr: string[] | null;
  signer_auth_time: Date | null;
  /** The consent to sign electronically the signature was made under. */
  esign_consent_version: string | null;
  esign_consent_given_at: Date | null;
}

/** A borrower's consent to sign electronically, per version of its text. */
export interface EsignConsentTable {
  borrower_id: string;
  version: string;
  text: string;
  given_at: ColumnType<Date, never, never>;
  /** The client address the consent came from. */
  given_from: string | null;
}

export interface LoanCheckoutTable {
  loan_id: string;
  started_at: ColumnType<Date, Date | undefined, never>;
  completed_at: Date | null;
}

export interface InvitationTable {
  id: string;
  /** sha-256 of the token; the token itself is never stored. */
  token_hash: string;
  borrower_id: string;
  /** The operator or trusted system that invited. */
  invited_by: string;
  expires_at: Date;
  consumed_at: Date | null;
  created_at: ColumnType<Date, never, Date>;
}

export interface LoanApplicationTable {
  id: Generated<string>;
  business_name: string;
  contact_name: string;
  email: string;
  /** Whole US dollars. */
  amount_requested: number;
  purpose: string;
  /** sha-256 of the e-mailed verification token; null for one sent while signed in (nothing to verify). */
  verification_token_hash: string | null;
  verification_expires_at: Date | null;
  email_verified_at: Date | null;
  /** The borrower who sent it while signed in; null for one sent signed out. */
  borrower_id: string | null;
  created_at: ColumnType<Date, never, never>;
}

export interface SecurityEventTable {
  id: Generated<string>;
  borrower_id: string;
  /** A SecurityEventKind of the contracts. */
  kind: string;
  /** To the millisecond, as the list's keyset cursor carries it. */
  occurred_at: Date;
  /** The session signed in or ended. */
  session_id: string | null;
  /** signed_in: how the session began. */
  method: string | null;
  /** session_ended: a SessionEndedBy of the contracts. */
  ended_by: string | null;
  /** second_factor_added/removed: a SecondFactorType of the contracts (null in older rows). */
  factor: string | null;
  /** The User-Agent of the device the event concerns (parsed when shown). */
  user_agent: string | null;
  /** That device's network only (an IPv4 /24 or IPv6 /64), never the full address. */
  client_network: string | null;
}

export interface ApiDatabase {
  borrower: BorrowerTable;
  product_signing_key: ProductSigningKeyTable;
  revoked_session: RevokedSessionTable;
  exchanged_id_token: ExchangedIdTokenTable;
  product_session: ProductSessionTable;
  lookup_token: LookupTokenTable;
  mail_outbox: MailOutboxTable;
  dev_mailbox_message: DevMailboxMessageTable;
  link_token: LinkTokenTable;
  link_request_count: LinkRequestCountTable;
  loan: LoanTable;
  loan_document: LoanDocumentTable;
  loan_instalment: LoanInstalmentTable;
  loan_checkout: LoanCheckoutTable;
  esign_consent: EsignConsentTable;
  invitation: InvitationTable;
  loan_application: LoanApplicationTable;
  security_event: SecurityEventTable;
  known_device: KnownDeviceTable;
  step_up_code: StepUpCodeTable;
  audit_record: AuditRecordTable;
  audit_chain: AuditChainTable;
  webhook_endpoint: WebhookEndpointTable;
  webhook_event: WebhookEventTable;
  webhook_delivery: WebhookDeliveryTable;
  console_session: ConsoleSessionTable;
  bank_account: BankAccountTable;
  payment_file: PaymentFileTable;
  payment: PaymentTable;
  autopay: AutopayTable;
  autopay_reminder: AutopayReminderTable;
  payment_return: PaymentReturnTable;
}

/** A staff member's sign-in to the console (migration 0025). */
export interface ConsoleSessionTable {
  id: string;
  idp_issuer: string;
  idp_subject: string;
  email: string;
  name: string;
  role: 'support' | 'admin';
  client_address: string | null;
  created_at: Generated<Date>;
  expires_at: Date;
  ended_at: Date | null;
}

/** A lender's endpoint for events (webhooks). */
export interface WebhookEndpointTable {
  id: Generated<string>;
  url: string;
  description: string | null;
  /** WebhookEventTypes of the contracts. */
  event_types: string[];
  /** The whsec_… signing secret, sealed (WEBHOOK_SECRET). */
  secret: string;
  enabled: Generated<boolean>;
  /** operator: no events for it meanwhile; failures: its events wait for it. */
  disabled_by: 'operator' | 'failures' | null;
  disabled_reason: string | null;
  failures_in_a_row: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** An event as signed and sent; its id is the webhook-id. */
export interface WebhookEventTable {
  id: string;
  type: string;
  payload: string;
  created_at: Generated<Date>;
}

/** One event's delivery to one endpoint: the outbox's row. */
export interface WebhookDeliveryTable {
  id: Generated<string>;
  event_id: string;
  endpoint_id: string;
  /** pending | delivering | delivered | dead */
  status: Generated<string>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  claimed_until: Date | null;
  claim_token: string | null;
  last_status: number | null;
  last_response: string | null;
  last_error: string | null;
  created_at: Generated<Date>;
  delivered_at: Date | null;
  updated_at: Generated<Date>;
}

/** One record of the audit trail (append-only): its canonical JSON, and the columns searched. */
export interface AuditRecordTable {
  /** Its place in the chain: 1, 2, 3… without a gap. */
  seq: Bigint;
  recorded_at: Date;
  actor: string;
  action: string;
  target: string | null;
  /** The record as hashed: canonical JSON of an AuditEntry with its seq and time. */
  entry: string;
  prev_hash: string;
  hash: string;
}

/** The audit chain's head (one row), and what the retention purge removed from its start. */
export interface AuditChainTable {
  id: number;
  seq: Bigint;
  hash: string;
  purged_through: Bigint;
  purged_hash: string;
}

/**
 * A transaction a service hands from one repository to another, so that what they write commits
 * together (a token and the e-mail carrying it). Services pass it on; only repositories query it.
 */
export type ApiTransaction = Kysely<ApiDatabase>;

/** A browser a borrower has signed in from: its device cookie's hash, never the cookie. */
export interface KnownDeviceTable {
  borrower_id: string;
  /** sha-256 of the device cookie's value. */
  device_hash: string;
  first_seen_at: ColumnType<Date, never, never>;
  last_seen_at: ColumnType<Date, Date | undefined, Date>;
}

export interface StepUpCodeTable {
  borrower_id: string;
  /** The product session (sid) that asked for the code: only it may use the code. */
  session_id: string;
  /** sha-256 of the borrower id and the code; null once used or spent. */
  code_hash: string | null;
  expires_at: Date;
  tries_left: number;
  sends: number;
  /** Wrong tries of all the borrower's codes in the window. */
  window_wrong: ColumnType<number, number | undefined, number>;
  window_started_at: Date;
}

/** A borrower's bank account (migration 0026): its number sealed (BANK_ACCOUNT_NUMBER). */
export interface BankAccountTable {
  id: Generated<string>;
  borrower_id: string;
  holder_name: string;
  routing_number: string;
  bank_name: string | null;
  account_type: 'checking' | 'savings';
  account_number: string;
  account_last4: string;
  status: Generated<'pending_verification' | 'verified' | 'failed' | 'disabled'>;
  /** The two micro-deposit amounts as "a,b", sealed (MICRO_AMOUNTS); null until a file carries them. */
  micro_amounts: string | null;
  micro_traces: string[] | null;
  micro_file_id: string | null;
  tries_left: Generated<number>;
  disabled_reason: string | null;
  created_at: Generated<Date>;
  verified_at: Date | null;
  removed_at: Date | null;
}

/** A NACHA file as written; `content` sealed (PAYMENT_FILE_CONTENT). */
export interface PaymentFileTable {
  id: Generated<string>;
  created_at: Generated<Date>;
  creation_day: CalendarDay;
  file_id_modifier: string;
  batch_count: number;
  entry_count: number;
  entry_hash: string;
  debit_total_cents: Bigint;
  credit_total_cents: Bigint;
  sha256: string;
  content: string;
  created_by: string;
  exported_at: Date | null;
  settled_at: Date | null;
}

export type PaymentStatusValue = 'scheduled' | 'pending' | 'settled' | 'returned' | 'cancelled';

export interface PaymentTable {
  id: Generated<string>;
  reference: string;
  borrower_id: string;
  loan_id: string;
  bank_account_id: string;
  kind: 'one_time' | 'autopay';
  amount_cents: Bigint;
  effective_on: CalendarDay;
  status: Generated<PaymentStatusValue>;
  idempotency_key: string | null;
  request_sha256: string | null;
  instalment_due_on: ColumnType<string | Date | null, string | null | undefined, string | null>;
  authorization_text: string;
  authorization_sha256: string;
  authorization_version: number;
  authorized_at: Date;
  authorized_from: string | null;
  authorized_user_agent: string | null;
  file_id: string | null;
  trace_number: string | null;
  return_code: string | null;
  returned_at: Date | null;
  cancelled_at: Date | null;
  cancelled_by: string | null;
  cancel_reason: string | null;
  settled_at: Date | null;
  created_at: Generated<Date>;
}

export interface AutopayTable {
  loan_id: string;
  borrower_id: string;
  bank_account_id: string;
  enabled: boolean;
  authorization_text: string;
  authorization_sha256: string;
  authorization_version: number;
  authorized_at: Date;
  authorized_from: string | null;
  authorized_user_agent: string | null;
  turned_off_at: Date | null;
  turned_off_reason: string | null;
}

export interface AutopayReminderTable {
  loan_id: string;
  due_on: CalendarDay;
  sent_at: Generated<Date>;
}

export interface PaymentReturnTable {
  id: Generated<string>;
  original_trace: string;
  return_code: string;
  amount_cents: Bigint;
  payment_id: string | null;
  bank_account_id: string | null;
  received_at: Generated<Date>;
}
