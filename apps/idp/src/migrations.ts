import { sql } from 'kysely';
import type { Migrations } from '@customer-core/database';

/**
 * The identity provider's tables (component 'idp'). Plain SQL that PostgreSQL 15+ and PGlite both run.
 * Timestamps are timestamptz and expiry is compared with the database's now(), so instances with
 * skewed clocks still agree.
 */
export const idpMigrations: Migrations = {
  '0001_identity_provider': {
    async up(db) {
      await sql`
        create table idp_user (
          id text primary key,
          login text not null,
          password_hash text not null,
          first_name text not null,
          last_name text not null,
          locale text not null,
          time_zone text not null,
          email_verified boolean not null default true,
          password_changed_at timestamptz not null,
          created_at timestamptz not null default now()
        );
        create unique index idp_user_login_key on idp_user (lower(login));

        create table idp_session_token (
          token_hash text primary key,
          user_id text not null references idp_user (id) on delete cascade,
          expires_at timestamptz not null,
          consumed_at timestamptz,
          session_uid text,
          created_at timestamptz not null default now()
        );
        create index idp_session_token_user_idx on idp_session_token (user_id);
        create index idp_session_token_expires_idx on idp_session_token (expires_at);

        create table idp_login_failure (
          user_id text not null references idp_user (id) on delete cascade,
          client_address text not null,
          failures integer not null,
          last_failure_at timestamptz not null,
          locked_until timestamptz,
          primary key (user_id, client_address)
        );
        create index idp_login_failure_last_idx on idp_login_failure (last_failure_at);

        create table idp_oidc_model (
          model text not null,
          id text not null,
          payload jsonb not null,
          grant_id text,
          uid text,
          user_code text,
          expires_at timestamptz,
          consumed_at timestamptz,
          primary key (model, id)
        );
        create index idp_oidc_model_grant_idx on idp_oidc_model (grant_id) where grant_id is not null;
        create index idp_oidc_model_uid_idx on idp_oidc_model (uid) where uid is not null;
        create index idp_oidc_model_user_code_idx on idp_oidc_model (user_code) where user_code is not null;
        create index idp_oidc_model_expires_idx on idp_oidc_model (expires_at) where expires_at is not null;
        -- sign-out finds an account's sessions and grants
        create index idp_oidc_model_account_idx on idp_oidc_model (model, (payload ->> 'accountId'));

        create table idp_key (
          name text primary key,
          material jsonb not null,
          created_at timestamptz not null default now()
        );
      `.execute(db);
    },
    async down(db) {
      await sql`
        drop table idp_key;
        drop table idp_oidc_model;
        drop table idp_login_failure;
        drop table idp_session_token;
        drop table idp_user;
      `.execute(db);
    },
  },
  '0002_sign_in_limits': {
    async up(db) {
      await sql`
        -- Wrong passwords per account from any address: the ceiling across addresses.
        create table idp_account_failure (
          user_id text primary key references idp_user (id) on delete cascade,
          failures integer not null,
          last_failure_at timestamptz not null
        );
        create index idp_account_failure_last_idx on idp_account_failure (last_failure_at);

        -- Requests per client network in fixed windows, shared by every instance.
        create table idp_request_count (
          bucket text primary key,
          window_started_at timestamptz not null,
          requests integer not null
        );
        create index idp_request_count_window_idx on idp_request_count (window_started_at);
      `.execute(db);
    },
    async down(db) {
      await sql`
        drop table idp_request_count;
        drop table idp_account_failure;
      `.execute(db);
    },
  },
  '0004_factors': {
    async up(db) {
      await sql`
        -- A borrower's second factors. A TOTP secret must be readable to check a code, so it is kept
        -- as it is; the database is the provider's own and holds the password hashes too.
        create table idp_factor (
          id text primary key,
          user_id text not null references idp_user (id) on delete cascade,
          factor_type text not null,
          provider text not null,
          status text not null,
          secret text,
          -- The last TOTP time step accepted: a code is never taken twice.
          last_used_step bigint,
          created_at timestamptz not null default now(),
          last_used_at timestamptz
        );
        create index idp_factor_user_idx on idp_factor (user_id);

        -- Okta's authentication transactions between the password and the second factor. Each answer
        -- names a new state token; only its hash is kept, and the one before it stops working.
        create table idp_authn_transaction (
          state_token_hash text primary key,
          user_id text not null references idp_user (id) on delete cascade,
          status text not null,
          factor_id text references idp_factor (id) on delete cascade,
          expires_at timestamptz not null,
          created_at timestamptz not null default now()
        );
        create index idp_authn_transaction_user_idx on idp_authn_transaction (user_id);
        create index idp_authn_transaction_expires_idx on idp_authn_transaction (expires_at);

        -- How the sign-in a session token ends was made (the ID token's amr) and when.
        alter table idp_session_token add column amr text;
        alter table idp_session_token add column authenticated_at timestamptz;
      `.execute(db);
    },
    async down(db) {
      await sql`
        alter table idp_session_token drop column authenticated_at;
        alter table idp_session_token drop column amr;
        drop table idp_authn_transaction;
        drop table idp_factor;
      `.execute(db);
    },
  },
  '0006_security_events': {
    async up(db) {
      await sql`
        -- Failed sign-ins and lockouts, one row per event as Okta's System Log has them, read back
        -- through /api/v1/logs. The client's network only, never its full address.
        create table idp_security_event (
          id text primary key default gen_random_uuid()::text,
          user_id text not null references idp_user (id) on delete cascade,
          event_type text not null,
          outcome text not null,
          reason text,
          client_network text,
          user_agent text,
          -- To the millisecond: the System Log's published time, and its paging cursor.
          published timestamptz not null default date_trunc('milliseconds', now())
        );
        create index idp_security_event_user_idx on idp_security_event (user_id, published);
        create index idp_security_event_published_idx on idp_security_event (published);
      `.execute(db);
    },
    async down(db) {
      await sql`drop table idp_security_event;`.execute(db);
    },
  },
  '0007_email_and_recovery_factors': {
    async up(db) {
      await sql`
        -- The code last e-mailed for an e-mail factor, hashed, and how many were sent in the current
        -- window (the resend limit). A used code's hash is cleared: it is never taken twice.
        create table idp_factor_code (
          factor_id text primary key references idp_factor (id) on delete cascade,
          code_hash text,
          expires_at timestamptz not null,
          sends integer not null,
          window_started_at timestamptz not null
        );

        -- Recovery codes, hashed; a used one is deleted.
        create table idp_recovery_code (
          user_id text not null references idp_user (id) on delete cascade,
          code_hash text not null,
          created_at timestamptz not null default now(),
          primary key (user_id, code_hash)
        );
      `.execute(db);
    },
    async down(db) {
      await sql`
        drop table idp_recovery_code;
        drop table idp_factor_code;
      `.execute(db);
    },
  },
  '0008_webauthn': {
    async up(db) {
      await sql`
        -- A WebAuthn factor's credential (Okta's webauthn, provider FIDO), written when the browser's
        -- attestation activates the factor. The public key only: nothing here signs in on its own.
        create table idp_webauthn_credential (
          factor_id text primary key references idp_factor (id) on delete cascade,
          user_id text not null references idp_user (id) on delete cascade,
          -- base64url, as the browser names it; one credential is one factor.
          credential_id text not null unique,
          -- The COSE public key, base64url.
          public_key text not null,
          -- The authenticator's signature counter: a sign-in with one not above it is refused.
          sign_count bigint not null default 0,
          transports text,
          -- What the borrower calls it (Okta's profile.authenticatorName).
          name text not null
        );
        create index idp_webauthn_credential_user_idx on idp_webauthn_credential (user_id);

        -- Challenges handed to the browser, each taken once: an enrolment (user and pending factor),
        -- a factor's verification in a sign-in (user and factor) or a passkey sign-in (neither).
        create table idp_webauthn_challenge (
          challenge text primary key,
          purpose text not null,
          user_id text references idp_user (id) on delete cascade,
          factor_id text references idp_factor (id) on delete cascade,
          expires_at timestamptz not null
        );
        create index idp_webauthn_challenge_expires_idx on idp_webauthn_challenge (expires_at);
      `.execute(db);
    },
    async down(db) {
      await sql`
        drop table idp_webauthn_challenge;
        drop table idp_webauthn_credential;
      `.execute(db);
    },
  },
  '0009_transaction_primary_amr': {
    async up(db) {
      await sql`
        -- How a transaction's user proved who they are before the second factor: a password, or the
        -- mailbox of an e-mailed sign-in link (amr values, comma-separated; null: a password).
        alter table idp_authn_transaction add column primary_amr text;
      `.execute(db);
    },
    async down(db) {
      await sql`alter table idp_authn_transaction drop column primary_amr;`.execute(db);
    },
  },
  '0012_enrolment_wrong_codes': {
    async up(db) {
      await sql`
        -- Wrong first codes a pending factor has taken: past the ceiling its enrolment starts again.
        alter table idp_factor add column wrong_codes integer not null default 0;
      `.execute(db);
    },
    async down(db) {
      await sql`alter table idp_factor drop column wrong_codes;`.execute(db);
    },
  },
  '0025_staff_groups': {
    async up(db) {
      await sql`
        -- The groups a user is in: the staff console's roles (its ID tokens' groups claim). Borrowers
        -- have none; a user with one is staff, and always signs in with a second factor.
        alter table idp_user add column groups text[] not null default '{}';
      `.execute(db);
    },
    async down(db) {
      await sql`alter table idp_user drop column groups;`.execute(db);
    },
  },
};
