import type { FastifyPluginAsync } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { isMigrated, type Migrations } from '@customer-core/database';

/** /healthz: the process answers. /readyz: it can serve (database reachable, schema current). */
export const healthRoutes =
  <DB>(db: Kysely<DB>, components: Record<string, Migrations>): FastifyPluginAsync =>
  async (app) => {
    app.get('/healthz', async () => ({ status: 'ok' }));
    app.get('/readyz', async (request, reply) => {
      try {
        await sql`select 1`.execute(db);
        for (const [component, migrations] of Object.entries(components)) {
          if (!(await isMigrated(db, component, migrations))) {
            return reply.status(503).send({ status: 'not_ready', reason: `${component} migrations pending` });
          }
        }
        return { status: 'ready' };
      } catch (err) {
        request.log.warn({ err }, 'readiness check failed');
        return reply.status(503).send({ status: 'not_ready', reason: 'database unreachable' });
      }
    });
  };
