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
};
