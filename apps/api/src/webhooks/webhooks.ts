import { randomUUID } from 'node:crypto';
import type { WebhookEventType } from '@customer-core/contracts';
import type { ApiTransaction } from '../db/schema.js';
import type {
  WebhookDeliveryRow,
  WebhookEndpointRow,
  WebhookEventRepository,
  WebhookRepository,
} from './webhook-repository.js';
import { newWebhookSecret } from './webhook-signature.js';
import type { WebhookWorker } from './webhook-worker.js';

/** What the flows call to tell the lender's systems something: written with the change it tells. */
export interface WebhookEvents {
  /**
   * Writes the event to the outbox inside `trx` (the transaction of what it tells), or alone without
   * one; call `nudge()` after the commit to have it delivered at once.
   */
  publish(type: WebhookEventType, data: Record<string, unknown>, trx?: ApiTransaction): Promise<void>;
  nudge(): void;
}

/** The lender's systems hear that staff ended a borrower's sessions (a lost phone, a takeover). */
export async function tellSessionsEndedByStaff(
  events: WebhookEvents,
  { borrowerId, ended, endedBy }: { borrowerId: string; ended: number; endedBy: string },
): Promise<void> {
  if (ended === 0) return;
  await events.publish('sessions.ended_by_staff', { borrowerId, sessions: ended, endedBy });
  events.nudge();
}

/** Events written to the outbox; `nudge` has a worker deliver them at once. */
export function webhookEvents(outbox: WebhookEventRepository, nudge: () => void): WebhookEvents {
  return {
    async publish(type, data, trx) {
      const id = `msg_${randomUUID().replaceAll('-', '')}`;
      const payload = JSON.stringify({ type, timestamp: new Date().toISOString(), data });
      await outbox.publish({ id, type, payload }, trx);
    },
    nudge,
  };
}

export type EndpointOutcome =
  { ok: true; endpoint: WebhookEndpointRow } | { ok: false; problem: 'not_found' | 'https_required' };

/** The lender's webhooks: events published by the flows, endpoints and deliveries for operators. */
export function webhooks(
  outbox: WebhookEventRepository,
  repository: WebhookRepository,
  worker: WebhookWorker,
  { production }: { production: boolean },
) {
  // Events carry borrowers' names and addresses: in production they go over TLS only.
  const refusedUrl = (url: string | undefined) =>
    production && url !== undefined && new URL(url).protocol !== 'https:';

  return {
    events: webhookEvents(outbox, () => worker.nudge()),

    async addEndpoint(endpoint: {
      url: string;
      description: string | null;
      eventTypes: readonly WebhookEventType[];
    }): Promise<
      { ok: true; endpoint: WebhookEndpointRow; secret: string } | { ok: false; problem: 'https_required' }
    > {
      if (refusedUrl(endpoint.url)) return { ok: false, problem: 'https_required' };
      const secret = newWebhookSecret();
      return { ok: true, endpoint: await repository.addEndpoint({ ...endpoint, secret }), secret };
    },

    endpoints: (): Promise<WebhookEndpointRow[]> => repository.endpoints(),

    async changeEndpoint(
      id: string,
      change: { url?: string; eventTypes?: readonly WebhookEventType[]; enabled?: boolean },
    ): Promise<EndpointOutcome> {
      if (refusedUrl(change.url)) return { ok: false, problem: 'https_required' };
      const endpoint = await repository.changeEndpoint(id, change);
      if (!endpoint) return { ok: false, problem: 'not_found' };
      // Turned on again: what waited for it goes now.
      if (change.enabled) worker.nudge();
      return { ok: true, endpoint };
    },

    deliveries: repository.deliveries,

    /** Delivers again, now, with the same webhook-id. Undefined: no such delivery. */
    async replay(id: string): Promise<WebhookDeliveryRow | undefined> {
      const delivery = await repository.replay(id);
      if (delivery) worker.nudge();
      return delivery;
    },
  };
}

export type Webhooks = ReturnType<typeof webhooks>;
