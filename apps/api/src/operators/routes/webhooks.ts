import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  WEBHOOK_EVENT_TYPES,
  webhookEndpoints,
  type WebhookDeliveryView,
  type WebhookEndpointView,
} from '@customer-core/contracts';
import { operatorOf } from '../../console/operator-access.js';
import { endpointRoute } from '../../http/endpoint-route.js';
import { HttpError } from '../../http/http-error.js';
import type { Webhooks } from '../../webhooks/webhooks.js';

// The lender's webhook endpoints and their deliveries, for operators (`npm run cli -- webhooks`).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const noEndpoint = () => new HttpError(404, 'not_found', 'No webhook endpoint has that id.');
const noDelivery = () => new HttpError(404, 'not_found', 'No webhook delivery has that id.');
const httpsRequired = () =>
  new HttpError(
    400,
    'bad_request',
    'In production a webhook endpoint’s URL must be https: events carry borrowers’ details.',
  );

type Endpoint = Awaited<ReturnType<Webhooks['endpoints']>>[number];
type Delivery = Awaited<ReturnType<Webhooks['deliveries']>>[number];

const endpointView = (endpoint: Endpoint): WebhookEndpointView => ({
  ...endpoint,
  createdAt: endpoint.createdAt.toISOString(),
});
const deliveryView = (delivery: Delivery): WebhookDeliveryView => ({
  ...delivery,
  createdAt: delivery.createdAt.toISOString(),
  nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
  deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
});

export const operatorWebhookRoutes =
  ({ webhooks }: { webhooks: Webhooks }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(webhookEndpoints.endpoints),
      handler: async () => ({ endpoints: (await webhooks.endpoints()).map(endpointView) }),
    });

    app.route({
      ...endpointRoute(webhookEndpoints.addEndpoint),
      handler: async (request, reply) => {
        const { url, eventTypes, description } = request.body;
        const added = await webhooks.addEndpoint({
          url,
          description: description ?? null,
          eventTypes: eventTypes ?? WEBHOOK_EVENT_TYPES,
        });
        if (!added.ok) throw httpsRequired();
        reply.code(201).header('cache-control', 'no-store');
        request.log.info(
          { operator: operatorOf(request).actor, endpointId: added.endpoint.id },
          'webhook endpoint added',
        );
        return { ...endpointView(added.endpoint), secret: added.secret };
      },
    });

    app.route({
      ...endpointRoute(webhookEndpoints.updateEndpoint),
      handler: async (request) => {
        const { endpointId } = request.params;
        if (!UUID.test(endpointId)) throw noEndpoint();
        const changed = await webhooks.changeEndpoint(endpointId, request.body);
        if (!changed.ok) throw changed.problem === 'not_found' ? noEndpoint() : httpsRequired();
        return endpointView(changed.endpoint);
      },
    });

    app.route({
      ...endpointRoute(webhookEndpoints.deliveries),
      handler: async (request) => ({
        deliveries: (await webhooks.deliveries(request.query)).map(deliveryView),
      }),
    });

    app.route({
      ...endpointRoute(webhookEndpoints.replayDelivery),
      handler: async (request, reply) => {
        const { deliveryId } = request.params;
        if (!UUID.test(deliveryId)) throw noDelivery();
        const delivery = await webhooks.replay(deliveryId);
        if (!delivery) throw noDelivery();
        reply.code(202);
        return deliveryView(delivery);
      },
    });
  };
