import { routeModule } from '../http/route-module.js';
import { devMailboxRoutes } from './routes/dev-mailbox.js';

/**
 * Mail's pages: the dev mailbox, served only where e-mail goes there. The outbox and its delivery are
 * the mail service (index.ts), which the flows are handed.
 */
export const mailModule = routeModule([devMailboxRoutes]);
