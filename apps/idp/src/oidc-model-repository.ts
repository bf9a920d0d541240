import type { Middleware } from 'koa';
import { sql, type Kysely, type OnConflictBuilder, type QueryCreator } from 'kysely';
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import { hasControlCharacter } from '@customer-core/contracts';
import { compiledOnce } from '@customer-core/database';
import { noteDatabaseError } from './database-loss.js';
import { RequestStorage } from './request-storage.js';
import type { IdpDatabase } from './schema.js';
import { toUser, type IdpUser } from './user-repository.js';

const notExpired = sql<boolean>`(expires_at is null or expires_at > now())`;

/**
 * Records that oidc-provider always saves before another record of the same request: a sign-in's
 * authorize saves its Grant, then its AuthorizationCode, then its Session; the token endpoint its
 * AccessToken, then its RefreshToken. Each waits for the request's next write and goes to the
 * database with it, in one statement, instead of a round trip each. The client learns of none of
 * them before that write (or, failing one, the request's end) has put them in the database, so every
 * instance sees them as soon as the client can present them.
 */
const WRITTEN_WITH_THE_NEXT = new Set(['Grant', 'AuthorizationCode', 'AccessToken']);

/**
 * The token endpoint consumes the code, then saves the tokens it issues for it: the code is marked
 * consumed in the statement that saves them, and only if no other redemption marked it first. Of
 * two redemptions of one code at once (on any instances), one gets tokens; the other's are deleted
 * unseen and it is refused (invalid_grant), as a code presented again is.
 */
const CONSUMED_WITH_THE_NEXT = new Set(['AuthorizationCode']);
const ISSUED_FOR_A_CODE = new Set(['AccessToken', 'RefreshToken']);

interface PendingWrite {
  model: string;
  id: string;
  payload: AdapterPayload;
  expiresIn: number;
}

interface Pending {
  /** By model and id: a later save of the same record replaces one. */
  writes: Map<string, PendingWrite>;
  /** A record to mark consumed with the next write. */
  consume?: { model: string; id: string } | undefined;
  /** Records read ahead with another (null: looked for, not there), by model and `id:`/`uid:` value. */
  readAhead: Map<string, AdapterPayload | null>;
  /** The code's account (the user), read ahead with it for oidc-provider's findAccount. */
  account?: IdpUser | undefined;
}

/**
 * The account the token endpoint's code was read with, when it is `accountId`: given once, and only
 * until the request writes anything. Undefined otherwise (then the database is asked).
 */
export function accountReadAhead(accountId: string): IdpUser | undefined {
  const pending = pendingWrites.getStore();
  const account = pending?.account;
  if (!pending || account?.id !== accountId) return undefined;
  pending.account = undefined;
  return account;
}

/** One request's writes not yet sent. */
const pendingWrites = new RequestStorage<Pending>();

const key = (model: string, id: string) => `${model}\u0000${id}`;

/** What a record saves, in a statement's parameters. */
type RecordValues = [
  model: string,
  id: string,
  payload: string,
  grantId: string | null,
  uid: string | null,
  userCode: string | null,
  expiresIn: number | null,
];
const VALUES_PER_RECORD = 7;

function valuesOf({ model, id, payload, expiresIn }: PendingWrite): RecordValues {
  const { grantId, uid, userCode } = payload;
  return [
    model,
    id,
    JSON.stringify(payload),
    grantId ?? null,
    uid ?? null,
    userCode ?? null,
    expiresIn || null,
  ];
}

/** The rows of `count` records, from all their values in turn (valuesOf's, one after another). */
const savedRows = (count: number, values: readonly unknown[]) =>
  Array.from({ length: count }, (_, record) => {
    const start = record * VALUES_PER_RECORD;
    const [model, id, payload, grant_id, uid, user_code, expiresIn] = values.slice(
      start,
      start + VALUES_PER_RECORD,
    ) as RecordValues;
    // No expiry (null) makes no interval, and no time.
    const expires_at = sql<Date>`now() + make_interval(secs => ${expiresIn})`;
    return { model, id, payload, grant_id, uid, user_code, expires_at };
  });

const live = (alias: string) =>
  sql<boolean>`(${sql.ref(`${alias}.expires_at`)} is null or ${sql.ref(`${alias}.expires_at`)} > now())`;
const consumedOf = (alias: string) =>
  sql<number | null>`floor(extract(epoch from ${sql.ref(`${alias}.consumed_at`)}))::integer`;

/** An authorization code, with the grant, the session and the user the token endpoint reads next. */
const findCodeWithItsReads = compiledOnce((db: Kysely<IdpDatabase>, id: string) =>
  db
    .selectFrom('idp_oidc_model as c')
    .leftJoin('idp_oidc_model as g', (join) =>
      join.on('g.model', '=', 'Grant').onRef('g.id', '=', 'c.grant_id').on(live('g')),
    )
    .leftJoin('idp_user as u', (join) => join.on(sql<boolean>`u.id = c.payload ->> 'accountId'`))
    .leftJoin('idp_oidc_model as s', (join) =>
      join
        .on('s.model', '=', 'Session')
        .on(sql<boolean>`s.uid = c.payload ->> 'sessionUid'`)
        .on(live('s')),
    )
    .select([
      'c.payload',
      consumedOf('c').as('consumed'),
      'g.payload as grant',
      consumedOf('g').as('grant_consumed'),
      sql<string | null>`c.payload ->> 'sessionUid'`.as('session_uid'),
      's.payload as session',
      consumedOf('s').as('session_consumed'),
      'u.id as user_id',
      'u.login as user_login',
      'u.first_name as user_first_name',
      'u.last_name as user_last_name',
      'u.locale as user_locale',
      'u.time_zone as user_time_zone',
      'u.email_verified as user_email_verified',
      'u.password_changed_at as user_password_changed_at',
      'u.created_at as user_created_at',
      'u.groups as user_groups',
    ])
    .where('c.model', '=', 'AuthorizationCode')
    .where('c.id', '=', id)
    .where(live('c')),
);

/** A record of `model` by one of its keys, and when it was consumed, if it was. */
const findRecordWhere = (column: 'id' | 'uid' | 'user_code') =>
  compiledOnce((db: Kysely<IdpDatabase>, model: string, value: string) =>
    db
      .selectFrom('idp_oidc_model')
      .select(['payload', sql<number | null>`floor(extract(epoch from consumed_at))::integer`.as('consumed')])
      .where('model', '=', model)
      .where(column, '=', value)
      .where(notExpired),
  );
const findRecordBy = {
  id: findRecordWhere('id'),
  uid: findRecordWhere('uid'),
  user_code: findRecordWhere('user_code'),
};

/** A record saved again replaces what was saved under its model and id. */
const replaceSaved = (oc: OnConflictBuilder<IdpDatabase, 'idp_oidc_model'>) =>
  oc.columns(['model', 'id']).doUpdateSet((eb) => ({
    payload: eb.ref('excluded.payload'),
    grant_id: eb.ref('excluded.grant_id'),
    uid: eb.ref('excluded.uid'),
    user_code: eb.ref('excluded.user_code'),
    expires_at: eb.ref('excluded.expires_at'),
  }));

/** One statement per number of records it saves, each compiled once when first needed. */
function perCount<S>(make: (count: number) => S): (count: number) => S {
  const made = new Map<number, S>();
  return (count) => {
    let statement = made.get(count);
    if (!statement) made.set(count, (statement = make(count)));
    return statement;
  };
}

/** Saves records: 1 to 3 in a request (Grant, AuthorizationCode and Session). */
const saving = perCount((count) =>
  compiledOnce((db: Kysely<IdpDatabase>, ...values: unknown[]) =>
    db.insertInto('idp_oidc_model').values(savedRows(count, values)).onConflict(replaceSaved),
  ),
);

/** Saves records while marking another consumed, only if nothing marked it first (a code redeemed). */
const savingConsuming = perCount((count) =>
  compiledOnce((db: Kysely<IdpDatabase>, model: string, id: string, ...values: unknown[]) =>
    db
      .with('consumed', (qc) =>
        markingConsumed(qc, { model, id }).where('consumed_at', 'is', null).returning('id'),
      )
      .insertInto('idp_oidc_model')
      .values(savedRows(count, values))
      .onConflict(replaceSaved)
      .returning(sql<number>`(select count(*) from consumed)::int`.as('consumed')),
  ),
);

/** Saves the records, as one statement. */
async function upsertAll(db: Kysely<IdpDatabase>, writes: PendingWrite[]): Promise<void> {
  if (writes.length === 0) return;
  await saving(writes.length)(db, ...writes.flatMap(valuesOf)).catch(noteDatabaseError);
}

/** A stored payload as oidc-provider takes it: with when it was consumed, if it was; null: none. */
function withConsumed(payload: unknown, consumed: number | null): AdapterPayload | null {
  if (payload === null || payload === undefined) return null;
  return consumed === null ? (payload as AdapterPayload) : { ...(payload as AdapterPayload), consumed };
}

/** The statement that marks a record consumed now. */
const markingConsumed = (qc: QueryCreator<IdpDatabase>, { model, id }: { model: string; id: string }) =>
  qc
    .updateTable('idp_oidc_model')
    .set({ consumed_at: sql<Date>`now()` })
    .where('model', '=', model)
    .where('id', '=', id);

/** Marks a record consumed, as one statement. */
async function markConsumed(db: Kysely<IdpDatabase>, model: string, id: string): Promise<void> {
  await markingConsumed(db, { model, id }).execute().catch(noteDatabaseError);
}

/** Sends what the request has pending (with `write`, if given), as one statement. */
async function sendPending(db: Kysely<IdpDatabase>, pending: Pending, write?: PendingWrite): Promise<void> {
  const writes = [...pending.writes.values(), ...(write ? [write] : [])];
  const { consume } = pending;
  pending.readAhead.clear();
  pending.account = undefined;
  pending.writes.clear();
  pending.consume = undefined;
  if (!consume) return upsertAll(db, writes);
  if (writes.length === 0) return markConsumed(db, consume.model, consume.id);
  const rows = await savingConsuming(writes.length)(
    db,
    consume.model,
    consume.id,
    ...writes.flatMap(valuesOf),
  ).catch(noteDatabaseError);
  if (rows[0]?.consumed === 1) return;
  // Another redemption consumed it first: the tokens issued here are withdrawn before anyone sees them.
  for (const { model, id } of writes.filter((w) => ISSUED_FOR_A_CODE.has(w.model))) {
    await db
      .deleteFrom('idp_oidc_model')
      .where('model', '=', model)
      .where('id', '=', id)
      .execute()
      .catch(noteDatabaseError);
  }
  throw new errors.InvalidGrant('authorization code already consumed');
}

/**
 * Middleware of the provider: gives each request its own pending writes, and sends any still
 * pending when the request has been handled, before its answer leaves.
 */
export function combineModelWrites(db: Kysely<IdpDatabase>): Middleware {
  return (ctx, next) =>
    pendingWrites.run({ writes: new Map(), readAhead: new Map() }, async () => {
      try {
        await next();
      } finally {
        try {
          await sendPending(db, pendingWrites.getStore()!);
        } catch (error) {
          // Nothing the answer names may be given out unsaved: a retry is asked for instead.
          ctx.status = 503;
          ctx.set('Retry-After', '1');
          ctx.body = { error: 'temporarily_unavailable', error_description: 'Please try again.' };
          ctx.app.emit('error', error, ctx);
        }
      }
    });
}

/**
 * oidc-provider's storage for one model, over the shared `idp_oidc_model` table: every instance
 * sees the same sessions, grants, codes and tokens. Expired rows are invisible here and purged
 * by `purgeExpiredModels`. A lost connection is noted for the request (see database-loss.ts).
 */
export class PostgresOidcAdapter implements Adapter {
  constructor(
    private readonly db: Kysely<IdpDatabase>,
    private readonly model: string,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const write = { model: this.model, id, payload, expiresIn };
    const pending = pendingWrites.getStore();
    if (!pending) return upsertAll(this.db, [write]);
    pending.readAhead.clear(); // what was read ahead is not read again once anything is written
    pending.account = undefined;
    pending.writes.delete(key(this.model, id));
    if (WRITTEN_WITH_THE_NEXT.has(this.model)) {
      pending.writes.set(key(this.model, id), write);
      return;
    }
    await sendPending(this.db, pending, write);
  }

  /** Before anything else touches the table in this request: what it saved is in the database. */
  private async writePending(): Promise<void> {
    const pending = pendingWrites.getStore();
    pending?.readAhead.clear();
    if (pending) pending.account = undefined;
    if (!pending || (pending.writes.size === 0 && !pending.consume)) return;
    await sendPending(this.db, pending);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    // Clients are configured statically; there is no dynamic registration to look up.
    if (this.model === 'Client') return undefined;
    if (this.model === 'AuthorizationCode' && !hasControlCharacter(id)) {
      const pending = pendingWrites.getStore();
      if (pending && pending.writes.size === 0 && !pending.consume) return this.findCode(id, pending);
    }
    return this.findWhere('id', id);
  }

  /**
   * The code, and with it, in the same statement, the grant and the session the token endpoint reads
   * next (oidc-provider's Grant.find and Session.findByUid): they are kept for this request only, and
   * only until it writes anything.
   */
  private async findCode(id: string, pending: Pending): Promise<AdapterPayload | undefined> {
    const [row] = await findCodeWithItsReads(this.db, id).catch(noteDatabaseError);
    if (!row) return undefined;
    const grantId = (row.payload as AdapterPayload).grantId;
    if (grantId)
      pending.readAhead.set(key('Grant', `id:${grantId}`), withConsumed(row.grant, row.grant_consumed));
    if (row.session_uid)
      pending.readAhead.set(
        key('Session', `uid:${row.session_uid}`),
        withConsumed(row.session, row.session_consumed),
      );
    if (row.user_id !== null)
      pending.account = toUser({
        id: row.user_id,
        login: row.user_login!,
        first_name: row.user_first_name!,
        last_name: row.user_last_name!,
        locale: row.user_locale!,
        time_zone: row.user_time_zone!,
        email_verified: row.user_email_verified!,
        password_changed_at: row.user_password_changed_at!,
        created_at: row.user_created_at!,
        groups: row.user_groups!,
      });
    return withConsumed(row.payload, row.consumed) ?? undefined;
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findWhere('uid', uid);
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findWhere('user_code', userCode);
  }

  async consume(id: string): Promise<void> {
    if (hasControlCharacter(id)) return;
    const pending = pendingWrites.getStore();
    // The code's account stays read ahead: the token endpoint consumes the code, then finds it.
    pending?.readAhead.clear();
    if (
      pending &&
      CONSUMED_WITH_THE_NEXT.has(this.model) &&
      !pending.consume &&
      !pending.writes.has(key(this.model, id))
    ) {
      pending.consume = { model: this.model, id };
      return;
    }
    await this.writePending();
    await markConsumed(this.db, this.model, id);
  }

  async destroy(id: string): Promise<void> {
    if (hasControlCharacter(id)) return;
    await this.writePending();
    await this.db
      .deleteFrom('idp_oidc_model')
      .where('model', '=', this.model)
      .where('id', '=', id)
      .execute()
      .catch(noteDatabaseError);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.writePending();
    await this.db
      .deleteFrom('idp_oidc_model')
      .where('model', '=', this.model)
      .where('grant_id', '=', grantId)
      .execute()
      .catch(noteDatabaseError);
  }

  private async findWhere(
    column: 'id' | 'uid' | 'user_code',
    value: string,
  ): Promise<AdapterPayload | undefined> {
    // Requests are checked before oidc-provider runs; this keeps any that slip past from the database.
    if (hasControlCharacter(value)) return undefined;
    const readAhead = pendingWrites.getStore()?.readAhead;
    const ahead = key(this.model, `${column}:${value}`);
    if (readAhead?.has(ahead)) {
      const payload = readAhead.get(ahead);
      readAhead.delete(ahead);
      return payload ?? undefined;
    }
    await this.writePending();
    const [row] = await findRecordBy[column](this.db, this.model, value).catch(noteDatabaseError);
    if (!row) return undefined;
    const payload = row.payload as AdapterPayload;
    return row.consumed === null ? payload : { ...payload, consumed: row.consumed };
  }
}

/** Deletes every expired artefact; safe to run from several instances at once. */
export async function purgeExpiredModels(db: Kysely<IdpDatabase>): Promise<void> {
  await db
    .deleteFrom('idp_oidc_model')
    .where('expires_at', '<=', sql<Date>`now()`)
    .execute();
}

export interface IdpSession {
  /** The sid claim of the ID tokens issued in it. */
  id: string;
  accountId: string;
  /** When the user signed in (oidc-provider's loginTs). */
  signedInAt: Date;
  /** How they signed in (RFC 8176), as the ID token says. */
  amr: string[];
  expiresAt: Date | null;
}

// Found by the uid alone, which only its index serves, and the record's kind compared after. With the
// model in the statement too (and an account), PostgreSQL could take the index on (model, account)
// instead and read every session to find one: it did in the bench's new database, before its
// statistics were gathered (0.27 ms a call on average against 0.03, some 800 sessions of one account:
// bench/README.md).
const liveRecordsWithUid = compiledOnce((db: Kysely<IdpDatabase>, uid: string) =>
  db
    .selectFrom('idp_oidc_model')
    .select(['model', 'payload', 'expires_at'])
    .where('uid', '=', uid)
    .where(notExpired),
);

/** A live, signed-in session by its uid (the sid claim); none when unknown, expired or signed out. */
export async function findSession(db: Kysely<IdpDatabase>, uid: string): Promise<IdpSession | undefined> {
  const row = (await liveRecordsWithUid(db, uid)).find((record) => record.model === 'Session');
  const { accountId, loginTs, amr } = (row?.payload ?? {}) as {
    accountId?: unknown;
    loginTs?: unknown;
    amr?: unknown;
  };
  if (!row || typeof accountId !== 'string') return undefined;
  return {
    id: uid,
    accountId,
    signedInAt: new Date((typeof loginTs === 'number' ? loginTs : 0) * 1000),
    amr: Array.isArray(amr) && amr.every((value) => typeof value === 'string') ? amr : ['pwd'],
    expiresAt: row.expires_at === null ? null : new Date(row.expires_at),
  };
}

/** Whether the session with this uid (an ID token's sid) exists, unexpired, signed in as the account. */
export async function sessionExists(
  db: Kysely<IdpDatabase>,
  uid: string,
  accountId: string,
): Promise<boolean> {
  return (await findSession(db, uid))?.accountId === accountId;
}

/**
 * Ends one session of the account (by its uid, the sid claim): its browser is no longer signed in and
 * its ID tokens no longer pass a session check. False when the account has no such live session.
 */
export async function destroySession(
  db: Kysely<IdpDatabase>,
  uid: string,
  accountId: string,
): Promise<boolean> {
  const deleted = await db
    .deleteFrom('idp_oidc_model')
    .where('model', '=', 'Session')
    .where('uid', '=', uid)
    .where(sql<boolean>`payload ->> 'accountId' = ${accountId}`)
    .executeTakeFirst();
  return deleted.numDeletedRows > 0n;
}

// Models whose payload names the account (the index on (model, accountId) serves this list).
const ACCOUNT_MODELS = [
  'Session',
  'Grant',
  'Interaction',
  'AuthorizationCode',
  'AccessToken',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
];

/**
 * Sign-out everywhere: the account's sessions, its grants, and every code and token issued under
 * those grants, in one statement.
 */
export async function destroyAccountArtefacts(db: Kysely<IdpDatabase>, accountId: string): Promise<void> {
  const accountIs = sql<boolean>`payload ->> 'accountId' = ${accountId}`;
  await db
    .deleteFrom('idp_oidc_model')
    .where((eb) =>
      eb.or([
        eb.and([eb('model', 'in', ACCOUNT_MODELS), accountIs]),
        eb(
          'grant_id',
          'in',
          eb.selectFrom('idp_oidc_model as g').select('g.id').where('g.model', '=', 'Grant').where(accountIs),
        ),
      ]),
    )
    .execute();
}

/**
 * After the database was restored from a backup: every session of the provider ends (what was signed
 * out or revoked since the backup lives again in it), with every grant, token and sign-in under way.
 */
export async function endEverySession(db: Kysely<IdpDatabase>): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const sessions = await trx
      .deleteFrom('idp_oidc_model')
      .where('model', 'in', [
        'Session',
        'Grant',
        'AccessToken',
        'AuthorizationCode',
        'RefreshToken',
        'Interaction',
        'PushedAuthorizationRequest',
      ])
      .returning('model')
      .execute();
    await trx.deleteFrom('idp_session_token').execute();
    await trx.deleteFrom('idp_authn_transaction').execute();
    return sessions.filter((row) => row.model === 'Session').length;
  });
}
