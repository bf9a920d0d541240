import {
  AddWebhookEndpointRequestSchema,
  UpdateWebhookEndpointRequestSchema,
  WEBHOOK_EVENT_TYPES,
  WebhookDeliveriesQuerySchema,
  webhookEndpoints,
} from '@customer-core/contracts';
import { usageError } from '../cli-error.js';
import { table, text, utcCell as when, validated, type Command } from '../command.js';

const USAGE = 'See: npm run cli -- webhooks --help';
const eventsOption = (values: Record<string, string | boolean | undefined>) =>
  text(values, 'events')
    ?.split(',')
    .map((type) => type.trim())
    .filter(Boolean);

export const webhooks: Command = {
  name: 'webhooks',
  summary: "Manage the lender's webhook endpoints, and see or replay their deliveries",
  help: `Usage: npm run cli -- webhooks list [--json]
       npm run cli -- webhooks add --url <url> [--events <type,...>] [--description <text>]
       npm run cli -- webhooks change <endpoint id> [--url <url>] [--events <type,...>]
       npm run cli -- webhooks disable <endpoint id>
       npm run cli -- webhooks enable <endpoint id>
       npm run cli -- webhooks deliveries [--endpoint <id>] [--status <status>] [--json]
       npm run cli -- webhooks replay <delivery id>

Events go to the lender's systems as Standard Webhooks (webhook-id, webhook-timestamp and
webhook-signature: HMAC-SHA256 with the endpoint's secret), retried with backoff; after its last
attempt (WEBHOOK_MAX_ATTEMPTS) a delivery gives up and its endpoint is turned off, its later events
waiting until it is enabled again.

  add          Adds an endpoint and prints its signing secret: the only time it is shown
  change       Changes an endpoint's URL or event types
  disable      Turns an endpoint off: no events for it until it is enabled
  enable       Turns it on again: what waited for it is delivered
  deliveries   The latest deliveries: event, status, attempts and the endpoint's last answer
  replay       Delivers an event again, now, with the same webhook-id (a receiver drops a repeat)

Event types: ${WEBHOOK_EVENT_TYPES.join(', ')} (all unless --events).
Statuses: pending, delivering, delivered, dead.`,
  options: {
    url: { type: 'string' },
    events: { type: 'string' },
    description: { type: 'string' },
    endpoint: { type: 'string' },
    status: { type: 'string' },
    json: { type: 'boolean' },
  },
  positionals: ['list', 'add', 'change', 'disable', 'enable', 'deliveries', 'replay'],
  async run(values, { portal, print, positionals }) {
    const [action, id, ...extra] = positionals;
    if (extra.length > 0) throw usageError(`webhooks ${action} takes at most one id. ${USAGE}`);
    const needsId = ['change', 'disable', 'enable', 'replay'].includes(action ?? '');
    if (needsId !== (id !== undefined))
      throw usageError(
        needsId
          ? `webhooks ${action} needs an id. ${USAGE}`
          : `webhooks ${action ?? ''} takes no id. ${USAGE}`,
      );

    switch (action) {
      case 'list': {
        const { endpoints } = await portal.call(webhookEndpoints.endpoints, {});
        if (values.json) return print(JSON.stringify(endpoints, null, 2));
        if (endpoints.length === 0)
          return print('No webhook endpoint yet. Add one: npm run cli -- webhooks add --url …');
        const rows = endpoints.map((e) => [
          e.id,
          e.url,
          e.enabled ? 'on' : 'off',
          e.eventTypes.length === WEBHOOK_EVENT_TYPES.length ? 'all' : e.eventTypes.join(','),
          e.disabledReason ?? e.description ?? '',
        ]);
        for (const line of table(['ENDPOINT', 'URL', 'STATE', 'EVENTS', 'NOTE'], rows)) print(line);
        return;
      }
      case 'add': {
        const body = validated(
          AddWebhookEndpointRequestSchema,
          {
            url: text(values, 'url'),
            eventTypes: eventsOption(values),
            description: text(values, 'description'),
          },
          { url: '--url', eventTypes: '--events', description: '--description' },
        );
        const added = await portal.call(webhookEndpoints.addEndpoint, { body });
        print(`Added endpoint ${added.id} for ${added.url}.`);
        print(`Its signing secret (shown only now; keep it with the receiver): ${added.secret}`);
        return;
      }
      case 'change':
      case 'disable':
      case 'enable': {
        const change =
          action === 'change'
            ? { url: text(values, 'url'), eventTypes: eventsOption(values) }
            : { enabled: action === 'enable' };
        const body = validated(UpdateWebhookEndpointRequestSchema, change, {
          url: '--url',
          eventTypes: '--events',
        });
        const changed = await portal.call(webhookEndpoints.updateEndpoint, {
          params: { endpointId: id! },
          body,
        });
        return print(`Endpoint ${changed.id} (${changed.url}) is ${changed.enabled ? 'on' : 'off'}.`);
      }
      case 'deliveries': {
        const query = validated(
          WebhookDeliveriesQuerySchema,
          { endpointId: text(values, 'endpoint'), status: text(values, 'status') },
          { endpointId: '--endpoint', status: '--status' },
        );
        const { deliveries } = await portal.call(webhookEndpoints.deliveries, { query });
        if (values.json) return print(JSON.stringify(deliveries, null, 2));
        if (deliveries.length === 0) return print('No delivery matches.');
        const rows = deliveries.map((d) => [
          d.id,
          d.type,
          d.status,
          String(d.attempts),
          d.lastStatus === null
            ? (d.lastError ?? '-').slice(0, 60)
            : `${d.lastStatus} ${d.lastResponse ?? ''}`.slice(0, 60),
          when(d.createdAt),
        ]);
        for (const line of table(
          ['DELIVERY', 'EVENT', 'STATUS', 'ATTEMPTS', 'LAST ANSWER', 'CREATED (UTC)'],
          rows,
        ))
          print(line);
        return;
      }
      case 'replay': {
        const replayed = await portal.call(webhookEndpoints.replayDelivery, { params: { deliveryId: id! } });
        return print(`Delivery ${replayed.id} (${replayed.eventId}) is queued again.`);
      }
      default:
        throw usageError(
          `webhooks takes one of: list, add, change, disable, enable, deliveries, replay. ${USAGE}`,
        );
    }
  },
};
