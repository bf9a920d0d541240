import { routeModule } from '../http/route-module.js';
import { operatorInvitationRoutes } from './routes/invitations.js';
import { registrationRoutes } from './routes/registration.js';

/** Joining: operators invite a borrower, who registers with the invitation's link. */
export const joiningModule = routeModule([operatorInvitationRoutes, registrationRoutes]);
