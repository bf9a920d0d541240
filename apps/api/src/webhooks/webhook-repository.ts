import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { placeIn, type SecretBox } from '@customer-core/database';
import type { WebhookEventType } from '@customer-core/contracts';
import type { ApiDatabase } from '../db/schema.js';
import { WEBHOOK_SECRET } from '../db/sealed-columns.js';

// The SQL of webhooks: the lender's endpoints (secrets sealed), and the outbox of events and their
// deliveries, claimed by workers on every instance (for update skip locked) as the mail outbox is.

export type WebhookExecutor = Transaction<ApiDatabase> | Kysely<ApiDatabase>;

export interface WebhookEndpointRow {
  id: string;
  url: string;
  description: string | null;
  eventTypes: WebhookEventType[];
  enabled: boolean;
  disabledReason: string | null;
  failuresInARow: number;
  createdAt: Date;
}

export interface WebhookDeliveryRow {
  id: string;
  eventId: string;
  type: WebhookEventType;
  endpointId: string;
  status: 'pending' | 'delivering' | 'delivered' | 'dead';
  attempts: number;
  lastStatus: number | null;
  lastResponse: string | null;
  lastError: string | null;
  createdAt: Date;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
}

/** A delivery a worker has claimed: it alone makes this attempt until `claimedUntil`. */
export interface ClaimedDelivery {
  id: string;
  eventId: string;
  type: string;
  payload: string;
  endpointId: string;
  url: string;
  secret: string;
  attempt: number;
  claimToken: string;
}

/** What an attempt got back: the endpoint's status and the start of its body, or why there was none. */
export interface AttemptAnswer {
  status: number | null;
  response: string | null;
  error: string | null;
}

const ENDPOINT_COLUMNS = [
  'id',
  'url',
  'description',
  'event_types',
  'enabled',
  'disabled_reason',
  'failures_in_a_row',
  'created_at',
] as const;

const endpointOf = (row: {
  id: string;
  url: string;
  description: string | null;
  event_types: string[];
  enabled: boolean;
  disabled_reason: string | null;
  failures_in_a_row: number;
  created_at: Date;
}): WebhookEndpointRow => ({
  id: row.id,
  url: row.url,
  description: row.description,
  eventTypes: row.event_types as WebhookEventType[],
  enabled: row.enabled,
  disabledReason: row.disabled_reason,
  failuresInARow: Number(row.failures_in_a_row),
  createdAt: row.created_at,
});

/**
 * Writes an event and a pending delivery to each endpoint that takes its type (none: nothing), in one
 * statement, in the caller's transaction when given one: what it tells and its telling commit together.
 * An endpoint turned off by an operator gets none; one turned off by failures gets them, to go when it
 * is back.
 */
export function webhookEventRepository(db: Kysely<ApiDatabase>) {
  return {
    publish: (event: { id: string; type: WebhookEventType; payload: string }, trx?: WebhookExecutor) =>
      publishWebhookEvent(trx ?? db, event),
  };
}

export type WebhookEventRepository = ReturnType<typeof webhookEventRepository>;

async function publishWebhookEvent(
  executor: WebhookExecutor,
  event: { id: string; type: WebhookEventType; payload: string },
): Promise<void> {
  // No endpoint takes it: nothing is written (no row of a borrower's details kept for no one).
  await sql`
    with takers as (
      select id from webhook_endpoint
      where (enabled or disabled_by = 'failures') and ${event.type} = any(event_types)
    ), event as (
      insert into webhook_event (id, type, payload)
      select ${event.id}, ${event.type}, ${event.payload} where exists (select 1 from takers)
      returning id
    )
    insert into webhook_delivery (event_id, endpoint_id)
    select event.id, takers.id from event, takers`.execute(executor);
}

export function webhookRepository(db: Kysely<ApiDatabase>, secrets: SecretBox) {
  const updateEndpoint = (id: string) => db.updateTable('webhook_endpoint').where('id', '=', id);

  return {
    async addEndpoint(endpoint: {
      url: string;
      description: string | null;
      eventTypes: readonly WebhookEventType[];
      secret: string;
    }): Promise<WebhookEndpointRow> {
      const id = randomUUID();
      const row = await db
        .insertInto('webhook_endpoint')
        .values({
          id,
          url: endpoint.url,
          description: endpoint.description,
          event_types: [...endpoint.eventTypes],
          secret: secrets.seal(endpoint.secret, placeIn(WEBHOOK_SECRET, id)),
        })
        .returning(ENDPOINT_COLUMNS)
        .executeTakeFirstOrThrow();
      return endpointOf(row);
    },

    async endpoints(): Promise<WebhookEndpointRow[]> {
      const rows = await db
        .selectFrom('webhook_endpoint')
        .select(ENDPOINT_COLUMNS)
        .orderBy('created_at')
        .execute();
      return rows.map(endpointOf);
    },

    /** Changes what is given; turned on again, its failures are forgotten. Undefined: no such endpoint. */
    async changeEndpoint(
      id: string,
      change: {
        url?: string | undefined;
        eventTypes?: readonly WebhookEventType[] | undefined;
        enabled?: boolean | undefined;
      },
    ): Promise<WebhookEndpointRow | undefined> {
      const row = await updateEndpoint(id)
        .set({
          ...(change.url === undefined ? {} : { url: change.url }),
          ...(change.eventTypes === undefined ? {} : { event_types: [...change.eventTypes] }),
          ...(change.enabled === undefined
            ? {}
            : change.enabled
              ? { enabled: true, disabled_by: null, disabled_reason: null, failures_in_a_row: 0 }
              : {
                  enabled: false,
                  disabled_by: 'operator' as const,
                  disabled_reason: 'Turned off by an operator.',
                }),
          updated_at: sql<Date>`now()`,
        })
        .returning(ENDPOINT_COLUMNS)
        .executeTakeFirst();
      return row && endpointOf(row);
    },

    /**
     * Claims up to `limit` due deliveries to enabled endpoints: pending ones whose time has come, and
     * claimed ones whose lease ended (their worker stopped). A disabled endpoint's wait for it.
     */
    async claimDue({ limit, leaseMs }: { limit: number; leaseMs: number }): Promise<ClaimedDelivery[]> {
      const claimToken = randomUUID();
      const { rows } = await sql<{
        id: string;
        event_id: string;
        endpoint_id: string;
        attempts: number;
        type: string;
        payload: string;
        url: string;
        secret: string;
      }>`
        with due as (
          select d.id from webhook_delivery d
          join webhook_endpoint endpoint on endpoint.id = d.endpoint_id and endpoint.enabled
          where (d.status = 'pending' and d.next_attempt_at <= now())
             or (d.status = 'delivering' and d.claimed_until <= now())
          order by d.next_attempt_at
          limit ${Math.trunc(limit)}
          for update of d skip locked
        ), claimed as (
          update webhook_delivery d
          set status = 'delivering',
              attempts = d.attempts + 1,
              claimed_until = now() + make_interval(secs => ${leaseMs / 1000}),
              claim_token = ${claimToken},
              updated_at = now()
          from due
          where d.id = due.id
          returning d.id, d.event_id, d.endpoint_id, d.attempts
        )
        select claimed.*, event.type, event.payload, endpoint.url, endpoint.secret
        from claimed
        join webhook_event event on event.id = claimed.event_id
        join webhook_endpoint endpoint on endpoint.id = claimed.endpoint_id`.execute(db);
      return rows.map((row) => ({
        id: row.id,
        eventId: row.event_id,
        type: row.type,
        payload: row.payload,
        endpointId: row.endpoint_id,
        url: row.url,
        secret: secrets.open(row.secret, placeIn(WEBHOOK_SECRET, row.endpoint_id)),
        attempt: Number(row.attempts),
        claimToken,
      }));
    },

    /** The endpoint took it: delivered, and its failures in a row are over. False: the claim was lost. */
    async markDelivered(claim: ClaimedDelivery, answer: AttemptAnswer): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const done = await releaseClaim(trx, claim, answer, {
          status: 'delivered',
          delivered_at: sql<Date>`now()`,
        });
        if (done)
          await trx
            .updateTable('webhook_endpoint')
            .set({ failures_in_a_row: 0 })
            .where('id', '=', claim.endpointId)
            .execute();
        return done;
      });
    },

    /** A failed attempt, tried again after `delayMs`. False: the claim was lost. */
    scheduleRetry(claim: ClaimedDelivery, answer: AttemptAnswer, delayMs: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const done = await releaseClaim(trx, claim, answer, {
          status: 'pending',
          next_attempt_at: sql<Date>`now() + make_interval(secs => ${Math.round(delayMs) / 1000})`,
        });
        if (done) await countFailure(trx, claim.endpointId);
        return done;
      });
    },

    /**
     * The last attempt failed: the delivery is dead, and its endpoint turned off (its other deliveries,
     * and those of events meanwhile, wait until an operator turns it on again). False: the claim was lost.
     */
    markDead(claim: ClaimedDelivery, answer: AttemptAnswer, reason: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const done = await releaseClaim(trx, claim, answer, { status: 'dead' });
        if (done) {
          await countFailure(trx, claim.endpointId);
          await trx
            .updateTable('webhook_endpoint')
            .set({
              enabled: false,
              disabled_by: 'failures',
              disabled_reason: reason,
              updated_at: sql<Date>`now()`,
            })
            .where('id', '=', claim.endpointId)
            .execute();
        }
        return done;
      });
    },

    /** Deliveries, newest first. */
    async deliveries(filter: {
      endpointId?: string | undefined;
      status?: WebhookDeliveryRow['status'] | undefined;
      limit: number;
    }): Promise<WebhookDeliveryRow[]> {
      let query = deliveryQuery(db);
      if (filter.endpointId !== undefined) query = query.where('d.endpoint_id', '=', filter.endpointId);
      if (filter.status !== undefined) query = query.where('d.status', '=', filter.status);
      const rows = await query.orderBy('d.created_at', 'desc').orderBy('d.id').limit(filter.limit).execute();
      return rows.map(deliveryOf);
    },

    /**
     * Queues a delivery again, due now, its attempts counted from zero, with its event (and so its
     * webhook-id) unchanged; a delivery being attempted is left to finish. Undefined: no such delivery.
     */
    async replay(id: string): Promise<WebhookDeliveryRow | undefined> {
      await db
        .updateTable('webhook_delivery')
        .set({
          status: 'pending',
          attempts: 0,
          next_attempt_at: sql<Date>`now()`,
          updated_at: sql<Date>`now()`,
        })
        .where('id', '=', id)
        .where('status', '!=', 'delivering')
        .execute();
      const row = await deliveryQuery(db).where('d.id', '=', id).executeTakeFirst();
      return row && deliveryOf(row);
    },
  };
}

export type WebhookRepository = ReturnType<typeof webhookRepository>;

/** Ends this worker's claim with the attempt's answer, unless the claim was lost meanwhile. */
async function releaseClaim(
  trx: Transaction<ApiDatabase>,
  claim: ClaimedDelivery,
  answer: AttemptAnswer,
  outcome: {
    status: WebhookDeliveryRow['status'];
    next_attempt_at?: ReturnType<typeof sql<Date>>;
    delivered_at?: ReturnType<typeof sql<Date>>;
  },
): Promise<boolean> {
  const result = await trx
    .updateTable('webhook_delivery')
    .set({
      ...outcome,
      last_status: answer.status,
      last_response: answer.response,
      last_error: answer.error,
      claimed_until: null,
      claim_token: null,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', claim.id)
    .where('claim_token', '=', claim.claimToken)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

async function countFailure(trx: Transaction<ApiDatabase>, endpointId: string): Promise<void> {
  await trx
    .updateTable('webhook_endpoint')
    .set((eb) => ({ failures_in_a_row: eb('failures_in_a_row', '+', 1) }))
    .where('id', '=', endpointId)
    .execute();
}

function deliveryQuery(db: Kysely<ApiDatabase>) {
  return db
    .selectFrom('webhook_delivery as d')
    .innerJoin('webhook_event as e', 'e.id', 'd.event_id')
    .select([
      'd.id',
      'd.event_id',
      'e.type',
      'd.endpoint_id',
      'd.status',
      'd.attempts',
      'd.last_status',
      'd.last_response',
      'd.last_error',
      'd.created_at',
      'd.next_attempt_at',
      'd.delivered_at',
    ]);
}

function deliveryOf(row: {
  id: string;
  event_id: string;
  type: string;
  endpoint_id: string;
  status: string;
  attempts: number;
  last_status: number | null;
  last_response: string | null;
  last_error: string | null;
  created_at: Date;
  next_attempt_at: Date;
  delivered_at: Date | null;
}): WebhookDeliveryRow {
  const status = row.status as WebhookDeliveryRow['status'];
  return {
    id: row.id,
    eventId: row.event_id,
    type: row.type as WebhookEventType,
    endpointId: row.endpoint_id,
    status,
    attempts: Number(row.attempts),
    lastStatus: row.last_status,
    lastResponse: row.last_response,
    lastError: row.last_error,
    createdAt: row.created_at,
    nextAttemptAt: status === 'pending' ? row.next_attempt_at : null,
    deliveredAt: row.delivered_at,
  };
}
