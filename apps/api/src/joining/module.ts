import { routeModule } from '../http/route-module.js';
import { registrationRoutes } from './routes/registration.js';

/** Joining: a borrower registers with an invitation's link (operators invite: operators/routes/invitations.ts). */
export const joiningModule = routeModule([registrationRoutes]);
