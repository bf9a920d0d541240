import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API_ERROR_CODES, CONSOLE_ERROR_CODES, consoleEndpoints } from '@customer-core/contracts';
import { clientAddress } from '@customer-core/contracts/server';
import { operatorOf } from '../../console/operator-access.js';
import type { StaffUsers } from '../../console/staff-users.js';
import { endpointRoute } from '../../http/endpoint-route.js';
import { HttpError } from '../../http/http-error.js';
import type { MailService } from '../../mail/index.js';

const withProvider = () =>
  new HttpError(
    409,
    CONSOLE_ERROR_CODES.staffWithProvider,
    'Staff users live in the hosted identity provider: add them to its console groups there.',
  );
const noStaffUser = () => new HttpError(404, 'not_found', 'No staff user has that id.');

/** Admins manage the console's staff users (the bundled identity provider's): list, add, change a role. */
export const operatorStaffRoutes =
  ({
    staffUsers,
    mail,
    trustProxy,
  }: {
    staffUsers: StaffUsers;
    mail: MailService;
    trustProxy: boolean;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      ...endpointRoute(consoleEndpoints.staffUsers),
      handler: async () => {
        const staff = await staffUsers.list();
        if (!staff) throw withProvider();
        return { staff };
      },
    });

    app.route({
      ...endpointRoute(consoleEndpoints.addStaffUser),
      handler: async (request, reply) => {
        const added = await staffUsers.add(request.body, clientAddress(request, trustProxy));
        if (added.kind === 'with_provider') throw withProvider();
        if (added.kind === 'login_taken')
          throw new HttpError(
            409,
            API_ERROR_CODES.alreadyRegistered,
            `${request.body.email} already has an account.`,
          );
        request.auditChange = { after: { role: added.user.role } };
        request.log.info({ operator: operatorOf(request).actor, staffId: added.user.id }, 'staff user added');
        reply.raw.once('close', () => mail.nudge());
        return reply.status(201).send(added.user);
      },
    });

    app.route({
      ...endpointRoute(consoleEndpoints.changeStaffUser),
      handler: async (request) => {
        const { staffId } = request.params;
        const { role } = request.body;
        // An admin who demoted themselves could leave the lender without one: another admin does it.
        const operator = operatorOf(request);
        if (operator.kind === 'staff' && operator.session.subject === staffId)
          throw new HttpError(403, 'forbidden', 'You can’t change your own role: another admin can.');
        const changed = await staffUsers.change(staffId, role);
        if (changed.kind === 'with_provider') throw withProvider();
        if (changed.kind === 'not_found') throw noStaffUser();
        request.auditChange = { after: { role } };
        request.log.info({ operator: operatorOf(request).actor, staffId, role }, 'staff role changed');
        return { id: staffId, role };
      },
    });
  };
