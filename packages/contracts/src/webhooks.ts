import { z } from 'zod';
import { endpoint } from './endpoint.js';
import { singleLineText } from './text.js';

// Events to the lender's systems (loan origination, servicing): webhooks in the Standard Webhooks
// format (webhook-id, webhook-timestamp, webhook-signature: HMAC-SHA256 with the endpoint's secret),
// delivered from the database's outbox with retries. Endpoints are managed with
// `npm run cli -- webhooks`.

/** What the portal tells the lender's systems, each as it happens. */
export const WEBHOOK_EVENT_TYPES = [
  'borrower.registered',
  'application.submitted',
  'application.email_verified',
  'document.reviewed',
  'documents.signed',
  'checkout.completed',
  'sessions.ended_by_staff',
  'payment.scheduled',
  'payment.settled',
  'payment.returned',
  'payment.cancelled',
  'autopay.enabled',
  'autopay.disabled',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const WebhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES, {
  message: `An event type is one of ${WEBHOOK_EVENT_TYPES.join(', ')}.`,
});

/** Deliveries of an event to an endpoint that fail this many times in a row turn the endpoint off. */
export const WEBHOOK_FAILURES_TO_DISABLE = 5;

const URL_MESSAGE = 'The URL must be an http(s) address of at most 2,000 characters, without credentials.';
export const WebhookUrlSchema = singleLineText(URL_MESSAGE)
  .trim()
  .max(2000, URL_MESSAGE)
  .refine((value) => {
    if (!URL.canParse(value)) return false;
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
  }, URL_MESSAGE);

const EventTypesSchema = z
  .array(WebhookEventTypeSchema)
  .min(1, 'Name at least one event type.')
  .max(WEBHOOK_EVENT_TYPES.length)
  .transform((types) => [...new Set(types)]);

export const AddWebhookEndpointRequestSchema = z.strictObject({
  url: WebhookUrlSchema,
  /** Every event type unless given. */
  eventTypes: EventTypesSchema.optional(),
  description: singleLineText().trim().max(200, 'The description must be at most 200 characters.').optional(),
});

export const UpdateWebhookEndpointRequestSchema = z
  .strictObject({
    url: WebhookUrlSchema.optional(),
    eventTypes: EventTypesSchema.optional(),
    /** Turning an endpoint on again clears its failures. */
    enabled: z.boolean().optional(),
  })
  .refine((change) => Object.keys(change).length > 0, 'Give a change: url, eventTypes or enabled.');

export const WebhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  eventTypes: z.array(WebhookEventTypeSchema),
  enabled: z.boolean(),
  /** Why it was turned off, when it was. */
  disabledReason: z.string().nullable(),
  failuresInARow: z.number().int(),
  createdAt: z.string(),
});
export type WebhookEndpointView = z.infer<typeof WebhookEndpointSchema>;

/** A new endpoint, with its signing secret: shown this once, kept sealed. */
export const CreatedWebhookEndpointSchema = WebhookEndpointSchema.extend({ secret: z.string() });

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivering', 'delivered', 'dead'] as const;

export const WebhookDeliverySchema = z.object({
  id: z.string(),
  /** The webhook-id: the same for every attempt and a replay, so a receiver processes it once. */
  eventId: z.string(),
  type: WebhookEventTypeSchema,
  endpointId: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  /** The endpoint's last answer: its status and the start of its body. */
  lastStatus: z.number().int().nullable(),
  lastResponse: z.string().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});
export type WebhookDeliveryView = z.infer<typeof WebhookDeliverySchema>;

const PAGE_MESSAGE = 'The page size is a whole number from 1 to 500.';
export const WebhookDeliveriesQuerySchema = z.strictObject({
  endpointId: z.uuid('That is not an endpoint id.').optional(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
  limit: z.coerce
    .number({ message: PAGE_MESSAGE })
    .int(PAGE_MESSAGE)
    .min(1, PAGE_MESSAGE)
    .max(500, PAGE_MESSAGE)
    .default(50),
});

const NOT_FOUND = { 404: ['not_found'] } as const;

export const webhookEndpoints = {
  endpoints: endpoint({
    method: 'GET',
    path: '/api/operator/webhooks/endpoints',
    tag: 'operators',
    summary: 'The lender’s webhook endpoints (never their secrets)',
    access: 'operator',
    responses: { 200: z.object({ endpoints: z.array(WebhookEndpointSchema) }) },
  }),
  addEndpoint: endpoint({
    method: 'POST',
    path: '/api/operator/webhooks/endpoints',
    tag: 'operators',
    summary: 'Add a webhook endpoint; its signing secret is in this answer only',
    access: 'operator',
    staff: { stepUp: true },
    body: AddWebhookEndpointRequestSchema,
    responses: { 201: CreatedWebhookEndpointSchema },
  }),
  /** An unknown or malformed id: 404. */
  updateEndpoint: endpoint({
    method: 'PATCH',
    path: '/api/operator/webhooks/endpoints/:endpointId',
    tag: 'operators',
    summary: 'Change a webhook endpoint’s URL or event types, or turn it off or on',
    access: 'operator',
    staff: { stepUp: true },
    body: UpdateWebhookEndpointRequestSchema,
    responses: { 200: WebhookEndpointSchema },
    errors: NOT_FOUND,
  }),
  deliveries: endpoint({
    method: 'GET',
    path: '/api/operator/webhooks/deliveries',
    tag: 'operators',
    summary: 'Webhook deliveries, newest first, each with the endpoint’s last answer',
    access: 'operator',
    query: WebhookDeliveriesQuerySchema,
    responses: { 200: z.object({ deliveries: z.array(WebhookDeliverySchema) }) },
  }),
  /** An unknown or malformed id: 404. */
  replayDelivery: endpoint({
    method: 'POST',
    path: '/api/operator/webhooks/deliveries/:deliveryId/replay',
    tag: 'operators',
    summary: 'Deliver an event to its endpoint again, now, with the same webhook-id',
    access: 'operator',
    responses: { 202: WebhookDeliverySchema },
    errors: NOT_FOUND,
  }),
};
