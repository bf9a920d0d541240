import type { FastifyPluginAsync } from 'fastify';
import type { ReadinessRepository } from '../db/readiness-repository.js';
import { namedPlugin } from './route-module.js';

/** /healthz: the process answers. /readyz: it can serve (database reachable, schema current). */
export const healthRoutes = (
  readiness: ReadinessRepository,
  /** Told of each readiness answer (metrics). */
  onReadiness: (ready: boolean) => void = () => {},
): FastifyPluginAsync =>
  namedPlugin('health', async (app) => {
    app.get('/healthz', async () => ({ status: 'ok' }));
    app.get('/readyz', async (request, reply) => {
      try {
        const pending = await readiness.pendingComponent();
        onReadiness(pending === undefined);
        if (pending !== undefined) {
          return reply.status(503).send({ status: 'not_ready', reason: `${pending} migrations pending` });
        }
        return { status: 'ready' };
      } catch (err) {
        onReadiness(false);
        request.log.warn({ err }, 'readiness check failed');
        return reply.status(503).send({ status: 'not_ready', reason: 'database unreachable' });
      }
    });
  });
