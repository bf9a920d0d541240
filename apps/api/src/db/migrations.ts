import { sql } from 'kysely';
import type { Migrations } from '@customer-core/database';

// The API's schema history. Append only: a migration that has run is never edited.
export const apiMigrations: Migrations = {
  '0001_borrowers_and_tokens': {
    async up(db) {
      await sql`
        create table borrower (
          id uuid primary key default gen_random_uuid(),
          email text not null,
          first_name text,
          last_name text,
          idp_issuer text not null,
          idp_subject text not null,
          external_ids text[] not null default '{}',
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now(),
          unique (idp_issuer, idp_subject)
        );
        create index borrower_email_idx on borrower (lower(email));

        create table product_signing_key (
          kid text primary key,
          private_key_pem text not null,
          public_jwk jsonb not null,
          created_at timestamptz not null default now()
        );

        create table revoked_access_token (
          jti text primary key,
          borrower_id uuid not null references borrower (id) on delete cascade,
          expires_at timestamptz not null,
          revoked_at timestamptz not null default now()
        );
        create index revoked_access_token_expires_idx on revoked_access_token (expires_at);
      `.execute(db);
    },
  },
  '0002_session_families_and_lookup_tokens': {
    async up(db) {
      await sql`
        -- Sign-out revokes a whole session family (every token refreshed from one sign-in), not one jti.
        drop table revoked_access_token;
        create table revoked_session (
          sid text primary key,
          borrower_id uuid not null references borrower (id) on delete cascade,
          expires_at timestamptz not null,
          revoked_at timestamptz not null default now()
        );
        create index revoked_session_expires_idx on revoked_session (expires_at);

        -- Tokens issued before this instant are refused (e.g. after a password change).
        alter table borrower add column tokens_not_before timestamptz;

        -- One-time lookup tokens minted by trusted systems, exchanged once for an access token.
        create table lookup_token (
          token_hash text primary key,
          borrower_id uuid not null references borrower (id) on delete cascade,
          minted_by text not null,
          expires_at timestamptz not null,
          consumed_at timestamptz,
          created_at timestamptz not null default now()
        );
        create index lookup_token_expires_idx on lookup_token (expires_at);
      `.execute(db);
    },
  },
  '0003_mail_outbox': {
    async up(db) {
      await sql`
        -- E-mail waiting to be delivered, written in the same transaction as whatever it carries.
        -- pending -> sending (claimed until a lease ends) -> sent, or back to pending for a retry,
        -- or dead after the last attempt. Bodies are cleared once a message is sent or dead: they carry
        -- one-time links.
        create table mail_outbox (
          id uuid primary key default gen_random_uuid(),
          idempotency_key text not null unique,
          kind text not null,
          recipient text not null,
          subject text not null,
          text_body text,
          html_body text,
          status text not null default 'pending' check (status in ('pending', 'sending', 'sent', 'dead')),
          attempts integer not null default 0,
          next_attempt_at timestamptz not null default now(),
          claimed_until timestamptz,
          claim_token text,
          last_error text,
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now(),
          sent_at timestamptz
        );
        create index mail_outbox_pending_idx on mail_outbox (next_attempt_at) where status = 'pending';
        create index mail_outbox_claimed_idx on mail_outbox (claimed_until) where status = 'sending';
        create index mail_outbox_finished_idx on mail_outbox (updated_at) where status in ('sent', 'dead');

        -- Outside production, mail is delivered here instead of to an SMTP relay: any instance can show it.
        create table dev_mailbox_message (
          id uuid primary key default gen_random_uuid(),
          seq bigint generated always as identity,
          message_id text not null unique,
          kind text not null,
          sender text not null,
          recipient text not null,
          subject text not null,
          text_body text not null,
          html_body text not null,
          created_at timestamptz not null default now()
        );
        create index dev_mailbox_message_recipient_idx on dev_mailbox_message (lower(recipient), seq);
      `.execute(db);
    },
  },
  '0004_link_tokens': {
    async up(db) {
      await sql`
        -- One-time tokens e-mailed as links (password reset, sign-in link) for a user of the bundled
        -- identity provider. Only the sha-256 is kept. One usable token per user and purpose: issuing a
        -- new one replaces the unconsumed one in the same row (the unique index below), so the older
        -- link stops working. A used token keeps its row (consumed_at) until it is purged.
        create table link_token (
          id uuid primary key,
          token_hash text not null unique,
          purpose text not null check (purpose in ('password_reset', 'magic_link')),
          idp_user_id text not null,
          return_to text,
          expires_at timestamptz not null,
          consumed_at timestamptz,
          created_at timestamptz not null default now()
        );
        create unique index link_token_usable_idx on link_token (idp_user_id, purpose) where consumed_at is null;
        create index link_token_expires_idx on link_token (expires_at);

        -- How many links were asked for per e-mail address (its sha-256) and per client address in the
        -- current fixed window, shared by every instance.
        create table link_request_count (
          bucket text primary key,
          window_started_at timestamptz not null,
          requests integer not null
        );
        create index link_request_count_window_idx on link_request_count (window_started_at);
      `.execute(db);
    },
  },
  '0005_loans_invitations_applications': {
    async up(db) {
      await sql`
        -- A borrower can exist before they have an identity: an operator invites them, or adds a loan
        -- for their e-mail address. Their first sign-in (or registration) links the identity.
        alter table borrower alter column idp_issuer drop not null;
        alter table borrower alter column idp_subject drop not null;
        alter table borrower add constraint borrower_identity_whole
          check ((idp_issuer is null) = (idp_subject is null));
        -- One borrower without an identity per e-mail address, so a sign-in links exactly one.
        create unique index borrower_unlinked_email_idx on borrower (lower(email)) where idp_subject is null;

        create table loan (
          id uuid primary key default gen_random_uuid(),
          borrower_id uuid not null references borrower (id) on delete cascade,
          reference text not null unique,
          product text not null,
          amount_cents bigint not null check (amount_cents >= 0),
          balance_cents bigint not null check (balance_cents >= 0),
          status text not null check (status in ('ACTIVE', 'PAST DUE', 'PAID', 'CLOSED LOST', 'HIDDEN')),
          next_payment_due date,
          next_payment_cents bigint check (next_payment_cents >= 0),
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now(),
          check ((next_payment_due is null) = (next_payment_cents is null))
        );
        create index loan_borrower_idx on loan (borrower_id);

        -- The documents a borrower reviews and signs at checkout: to_review -> reviewed -> signed.
        create table loan_document (
          id uuid primary key default gen_random_uuid(),
          loan_id uuid not null references loan (id) on delete cascade,
          position integer not null,
          title text not null,
          description text not null,
          body text not null,
          requires_signature boolean not null,
          reviewed_at timestamptz,
          signed_at timestamptz,
          signature_name text,
          unique (loan_id, position),
          check (signed_at is null or (requires_signature and reviewed_at is not null and signature_name is not null))
        );

        create table loan_checkout (
          loan_id uuid primary key references loan (id) on delete cascade,
          started_at timestamptz not null default now(),
          completed_at timestamptz
        );

        -- An operator's invitation to register; only the sha-256 of its token is kept. A new invitation
        -- replaces the borrower's unconsumed one (the unique index), so the older link stops working.
        create table invitation (
          id uuid primary key,
          token_hash text not null unique,
          borrower_id uuid not null references borrower (id) on delete cascade,
          invited_by text not null,
          expires_at timestamptz not null,
          consumed_at timestamptz,
          created_at timestamptz not null default now()
        );
        create unique index invitation_usable_idx on invitation (borrower_id) where consumed_at is null;
        create index invitation_expires_idx on invitation (expires_at);

        -- A loan application started on the portal, and the verification of its e-mail address.
        create table loan_application (
          id uuid primary key default gen_random_uuid(),
          business_name text not null,
          contact_name text not null,
          email text not null,
          amount_requested integer not null,
          purpose text not null,
          verification_token_hash text not null unique,
          verification_expires_at timestamptz not null,
          email_verified_at timestamptz,
          created_at timestamptz not null default now()
        );
        create index loan_application_email_idx on loan_application (lower(email));
      `.execute(db);
    },
  },
  '0006_exchanged_id_tokens': {
    async up(db) {
      await sql`
        -- Every ID token exchanged for a product session, by the sha-256 of its issuer and jti (or of
        -- the whole token when it has no jti), kept until it expires: each is exchanged once, on any
        -- instance.
        create table exchanged_id_token (
          token_hash text primary key,
          expires_at timestamptz not null,
          exchanged_at timestamptz not null default now()
        );
        create index exchanged_id_token_expires_idx on exchanged_id_token (expires_at);
      `.execute(db);
    },
  },
  '0007_session_rotation': {
    async up(db) {
      await sql`
        -- One row per sign-in session (a family of access tokens), written by its first refresh. Each
        -- refresh spends the current generation and hands out the next, so a token refreshes once; a
        -- spent one presented again revokes the family (refresh-token reuse detection).
        create table product_session (
          sid text primary key,
          borrower_id uuid not null references borrower (id) on delete cascade,
          generation integer not null,
          created_at timestamptz not null,
          last_active_at timestamptz not null default now()
        );
        create index product_session_borrower_idx on product_session (borrower_id);
        create index product_session_created_idx on product_session (created_at);
      `.execute(db);
    },
  },
  '0008_email_links_coexist': {
    async up(db) {
      await sql`
        -- A borrower may hold several usable links of one purpose (asking again, from anywhere, voids
        -- none); using one voids the others. The index stays, no longer unique, for that lookup.
        drop index link_token_usable_idx;
        create index link_token_usable_idx on link_token (idp_user_id, purpose) where consumed_at is null;
      `.execute(db);
    },
  },
  '0009_loan_instalments': {
    async up(db) {
      await sql`
        -- A loan's payment schedule as the lender's book keeps it: one row per due date, paid or not.
        create table loan_instalment (
          loan_id uuid not null references loan (id) on delete cascade,
          due_on date not null,
          amount_cents bigint not null check (amount_cents > 0),
          paid_on date,
          primary key (loan_id, due_on)
        );
      `.execute(db);
    },
  },
  '0010_signed_document_pdfs': {
    async up(db) {
      await sql`
        -- What a signature certificate needs, recorded when the borrower signs: the client address
        -- and the SHA-256 of the text signed. The PDF is written once, on its first download, and the
        -- same bytes are served ever after.
        alter table loan_document
          add column signed_from text,
          add column signed_body_sha256 text,
          add column signed_pdf bytea;
      `.execute(db);
    },
  },
  '0011_account_security': {
    async up(db) {
      await sql`
        -- Each sign-in writes its session's row at once (not at its first refresh), with what the
        -- borrower's account page shows of it: how it began, the device, the client's network (never
        -- the full address), and the identity provider's session to end with it.
        alter table product_session
          add column method text,
          add column user_agent text,
          add column client_network text,
          add column idp_session_id text;
      `.execute(db);
    },
  },
  '0012_security_activity': {
    async up(db) {
      await sql`
        -- What happened to a borrower's account, for them and for operators: sign-ins, sessions
        -- ended, password changes. Only what the list shows: never a token, secret or full address.
        create table security_event (
          id uuid primary key default gen_random_uuid(),
          borrower_id uuid not null references borrower (id) on delete cascade,
          kind text not null,
          occurred_at timestamptz not null,
          session_id text,
          method text,
          ended_by text,
          user_agent text,
          client_network text
        );
        -- The list pages newest first on (occurred_at, id); the purge deletes by age.
        create index security_event_borrower_idx on security_event (borrower_id, occurred_at desc, id desc);
        create index security_event_occurred_idx on security_event (occurred_at);
      `.execute(db);
    },
  },
  '0013_email_change': {
    async up(db) {
      await sql`
        -- A link e-mailed to the new sign-in address a borrower asked for: the address it confirms is
        -- kept with the token until the link is used.
        alter table link_token drop constraint link_token_purpose_check;
        alter table link_token add constraint link_token_purpose_check
          check (purpose in ('password_reset', 'magic_link', 'email_change'));
        alter table link_token add column new_email text;
      `.execute(db);
    },
  },
  '0015_security_event_factor': {
    async up(db) {
      await sql`
        -- second_factor_added/removed: which kind of factor (authenticator_app, passkey); null before.
        alter table security_event add column factor text;
      `.execute(db);
    },
  },
  '0016_known_devices': {
    async up(db) {
      await sql`
        -- The browsers each borrower has signed in from (their device cookie, hashed), so a sign-in
        -- from a new one can be told to them; and the one-time "This wasn't me" link of that e-mail.
        create table known_device (
          borrower_id uuid not null references borrower (id) on delete cascade,
          device_hash text not null,
          first_seen_at timestamptz not null default now(),
          last_seen_at timestamptz not null default now(),
          primary key (borrower_id, device_hash)
        );
        create index known_device_last_seen_idx on known_device (last_seen_at);
        alter table link_token drop constraint link_token_purpose_check;
        alter table link_token add constraint link_token_purpose_check
          check (purpose in ('password_reset', 'magic_link', 'email_change', 'unrecognized_sign_in'));
      `.execute(db);
    },
  },
  '0018_id_tokens_not_before': {
    async up(db) {
      await sql`
        -- ID tokens issued before this instant are refused ("sign out my other sessions"), while the
        -- borrower's own product session, exchanged already, goes on.
        alter table borrower add column id_tokens_not_before timestamptz;
      `.execute(db);
    },
  },
  '0019_step_up_code': {
    async up(db) {
      await sql`
        -- A code e-mailed to a borrower to confirm it's them before a sensitive action: one current
        -- code per borrower, good only in the session that asked for it (hashed, with its expiry and
        -- the wrong tries it has left), and the sends and wrong tries counted per window.
        create table step_up_code (
          borrower_id uuid primary key references borrower (id) on delete cascade,
          session_id text not null,
          code_hash text,
          expires_at timestamptz not null,
          tries_left integer not null,
          sends integer not null,
          window_wrong integer not null default 0,
          window_started_at timestamptz not null
        );
      `.execute(db);
    },
  },
  '0020_borrower_applications': {
    async up(db) {
      await sql`
        -- An application sent while signed in belongs to its borrower, and has no link to verify: the
        -- account's address is verified by its sign-in.
        alter table loan_application add column borrower_id uuid references borrower (id) on delete set null;
        alter table loan_application alter column verification_token_hash drop not null;
        alter table loan_application alter column verification_expires_at drop not null;
        create index loan_application_borrower_idx on loan_application (borrower_id);
      `.execute(db);
    },
  },
  '0021_esign_consent_and_signers': {
    async up(db) {
      await sql`
        -- A borrower's consent to sign electronically: the text they agreed to, its version and when,
        -- kept as it was (a new text is a new version, agreed again).
        create table esign_consent (
          borrower_id uuid not null references borrower (id) on delete cascade,
          version text not null,
          text text not null,
          given_at timestamptz not null default now(),
          given_from text,
          primary key (borrower_id, version)
        );
        -- Who signed, as the signature certificate states it: the account's name and address at that
        -- moment, how they signed in (the token's amr) and when, and the consent. Null before these.
        alter table loan_document
          add column signer_name text,
          add column signer_email text,
          add column signer_amr text[],
          add column signer_auth_time timestamptz,
          add column esign_consent_version text,
          add column esign_consent_given_at timestamptz;
      `.execute(db);
    },
  },
  '0022_audit_trail': {
    async up(db) {
      await sql`
        -- Who did what to whose account: every operator call and every change a borrower makes to
        -- their own account, appended in order. Each record is its canonical JSON (what is hashed)
        -- with the columns a search needs copied out of it, and the sha-256 of the previous record's
        -- hash and its own JSON: an edit, or a record gone from the middle, breaks the chain.
        create table audit_record (
          seq bigint primary key,
          recorded_at timestamptz not null,
          actor text not null,
          action text not null,
          target text,
          entry text not null,
          prev_hash text not null,
          hash text not null
        );
        create index audit_record_recorded_at_idx on audit_record (recorded_at);
        create index audit_record_actor_idx on audit_record (actor, seq);
        create index audit_record_target_idx on audit_record (target, seq);

        -- The chain's head (the last record's number and hash), locked by each append so records are
        -- numbered without a gap, and what the retention purge removed (the last purged record's hash
        -- anchors the first one kept). Its one row is written by the first append.
        create table audit_chain (
          id smallint primary key check (id = 1),
          seq bigint not null,
          hash text not null,
          purged_through bigint not null default 0,
          purged_hash text not null
        );

        -- Append-only for whoever the portal connects as: no record is changed or removed, except by
        -- the retention purge, and only records older than the retention the purge was given (the
        -- setting customer_core.audit_retention_days, set in its transaction; 365 days at least).
        create function audit_record_append_only() returns trigger language plpgsql as $$
        declare
          retention_days integer := nullif(current_setting('customer_core.audit_retention_days', true), '')::integer;
        begin
          if tg_op = 'DELETE' and retention_days >= 365
             and old.recorded_at < now() - make_interval(days => retention_days) then
            return old;
          end if;
          raise exception 'audit records are append-only' using errcode = 'insufficient_privilege';
        end
        $$;
        create trigger audit_record_append_only before update or delete on audit_record
          for each row execute function audit_record_append_only();
        create trigger audit_record_no_truncate before truncate on audit_record
          for each statement execute function audit_record_append_only();
      `.execute(db);
    },
  },
  '0023_webhooks': {
    async up(db) {
      await sql`
        -- The lender's endpoints for events, each with its signing secret (sealed) and the events it
        -- takes; turned off by an operator (no events for it from then), or by a delivery that gave
        -- up (its events wait for it: the lender's system is down, not unwanted).
        create table webhook_endpoint (
          id uuid primary key default gen_random_uuid(),
          url text not null,
          description text,
          event_types text[] not null,
          secret text not null,
          enabled boolean not null default true,
          disabled_by text check (disabled_by in ('operator', 'failures')),
          disabled_reason text,
          failures_in_a_row integer not null default 0,
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now()
        );

        -- An event as it is signed and sent (its id is the webhook-id), written in the transaction of
        -- what it tells, with a delivery per endpoint that takes it: the outbox the workers deliver.
        create table webhook_event (
          id text primary key,
          type text not null,
          payload text not null,
          created_at timestamptz not null default now()
        );
        create table webhook_delivery (
          id uuid primary key default gen_random_uuid(),
          event_id text not null references webhook_event (id) on delete cascade,
          endpoint_id uuid not null references webhook_endpoint (id) on delete cascade,
          status text not null default 'pending',
          attempts integer not null default 0,
          next_attempt_at timestamptz not null default now(),
          claimed_until timestamptz,
          claim_token text,
          last_status integer,
          last_response text,
          last_error text,
          created_at timestamptz not null default now(),
          delivered_at timestamptz,
          updated_at timestamptz not null default now(),
          unique (event_id, endpoint_id)
        );
        create index webhook_delivery_due_idx on webhook_delivery (next_attempt_at)
          where status in ('pending', 'delivering');
        create index webhook_delivery_endpoint_idx on webhook_delivery (endpoint_id, created_at);
        create index webhook_delivery_created_idx on webhook_delivery (created_at);
      `.execute(db);
    },
  },
  '0024_legal_hold': {
    async up(db) {
      await sql`
        -- A legal hold (litigation, an examination) keeps all of a borrower's data: an erasure is
        -- refused while it holds. Set and lifted by operators, with the reason.
        alter table borrower add column legal_hold_reason text, add column legal_hold_since timestamptz;
      `.execute(db);
    },
  },
  '0025_console_sessions': {
    async up(db) {
      await sql`
        -- A staff member's sign-in to the console: short, never refreshed, ended by sign-out or by a
        -- change of their role. Its role is the one the identity provider's groups gave at sign-in.
        create table console_session (
          id uuid primary key,
          idp_issuer text not null,
          idp_subject text not null,
          email text not null,
          name text not null,
          role text not null check (role in ('support', 'admin')),
          client_address text,
          created_at timestamptz not null default now(),
          expires_at timestamptz not null,
          ended_at timestamptz
        );
        create index console_session_staff_idx on console_session (idp_issuer, idp_subject);
        create index console_session_expires_idx on console_session (expires_at);
      `.execute(db);
    },
  },
  '0026_payments': {
    async up(db) {
      await sql`
        -- A borrower's business bank account: its number sealed (SECRETS_KEYS), shown by its last four
        -- digits. The two micro-deposit amounts are drawn when a file carries them and kept sealed too
        -- (a hash of so few possible pairs would hide nothing), with their entries' traces, since a
        -- return of one fails the verification.
        create table bank_account (
          id uuid primary key default gen_random_uuid(),
          borrower_id uuid not null references borrower (id) on delete cascade,
          holder_name text not null,
          routing_number text not null,
          bank_name text,
          account_type text not null check (account_type in ('checking', 'savings')),
          account_number text not null,
          account_last4 text not null,
          status text not null default 'pending_verification'
            check (status in ('pending_verification', 'verified', 'failed', 'disabled')),
          micro_amounts text,
          micro_traces text[],
          micro_file_id uuid,
          tries_left integer not null default 3,
          disabled_reason text,
          created_at timestamptz not null default now(),
          verified_at timestamptz,
          removed_at timestamptz
        );
        create index bank_account_borrower_idx on bank_account (borrower_id) where removed_at is null;
        create index bank_account_micro_traces_idx on bank_account using gin (micro_traces);

        -- A NACHA file for the lender's bank, as written (sealed: it holds account numbers). The File
        -- ID Modifier is unique per creation day, as the bank requires.
        create table payment_file (
          id uuid primary key default gen_random_uuid(),
          created_at timestamptz not null default now(),
          creation_day date not null,
          file_id_modifier text not null,
          batch_count integer not null,
          entry_count integer not null,
          entry_hash text not null,
          debit_total_cents bigint not null,
          credit_total_cents bigint not null,
          sha256 text not null,
          content text not null,
          created_by text not null,
          exported_at timestamptz,
          settled_at timestamptz,
          unique (creation_day, file_id_modifier)
        );
        -- The 7-digit sequence of every entry's trace number (after the ODFI's 8 digits).
        create sequence ach_trace_sequence minvalue 1 maxvalue 9999999 cycle;

        -- A debit from a borrower's account toward a loan, with the authorization the borrower accepted
        -- (its words, their fingerprint, when and from where). One per idempotency key per borrower;
        -- autopay's once per instalment.
        create table payment (
          id uuid primary key default gen_random_uuid(),
          reference text not null unique,
          borrower_id uuid not null references borrower (id) on delete cascade,
          loan_id uuid not null references loan (id) on delete cascade,
          bank_account_id uuid not null references bank_account (id),
          kind text not null check (kind in ('one_time', 'autopay')),
          amount_cents bigint not null check (amount_cents > 0),
          effective_on date not null,
          status text not null default 'scheduled'
            check (status in ('scheduled', 'pending', 'settled', 'returned', 'cancelled')),
          idempotency_key uuid,
          request_sha256 text,
          instalment_due_on date,
          authorization_text text not null,
          authorization_sha256 text not null,
          authorization_version integer not null,
          authorized_at timestamptz not null,
          authorized_from text,
          authorized_user_agent text,
          file_id uuid references payment_file (id),
          trace_number text unique,
          return_code text,
          returned_at timestamptz,
          cancelled_at timestamptz,
          cancelled_by text,
          cancel_reason text,
          settled_at timestamptz,
          created_at timestamptz not null default now(),
          unique (borrower_id, idempotency_key)
        );
        create unique index payment_autopay_once on payment (loan_id, instalment_due_on) where kind = 'autopay';
        create index payment_loan_idx on payment (loan_id, created_at);
        create index payment_due_idx on payment (effective_on) where status = 'scheduled';
        create index payment_file_idx on payment (file_id);

        -- The instalments a settled payment paid, so a late return can open them again.
        alter table loan_instalment add column paid_by_payment uuid references payment (id);

        -- Autopay of a loan: the standing authorization, on until turned off (by the borrower, or by a
        -- return that says the debits are not authorized).
        create table autopay (
          loan_id uuid primary key references loan (id) on delete cascade,
          borrower_id uuid not null references borrower (id) on delete cascade,
          bank_account_id uuid not null references bank_account (id),
          enabled boolean not null,
          authorization_text text not null,
          authorization_sha256 text not null,
          authorization_version integer not null,
          authorized_at timestamptz not null,
          authorized_from text,
          authorized_user_agent text,
          turned_off_at timestamptz,
          turned_off_reason text
        );
        -- The reminder before each autopay debit, sent once.
        create table autopay_reminder (
          loan_id uuid not null references loan (id) on delete cascade,
          due_on date not null,
          sent_at timestamptz not null default now(),
          primary key (loan_id, due_on)
        );

        -- Each return the bank sent back, once (a returns file read twice changes nothing), and what it
        -- matched: a payment, a micro-deposit, or nothing (for operators to look at).
        create table payment_return (
          id uuid primary key default gen_random_uuid(),
          original_trace text not null,
          return_code text not null,
          amount_cents bigint not null,
          payment_id uuid references payment (id),
          bank_account_id uuid references bank_account (id),
          received_at timestamptz not null default now(),
          unique (original_trace, return_code)
        );
      `.execute(db);
    },
  },
};
