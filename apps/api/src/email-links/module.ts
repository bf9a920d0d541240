import { routeModule } from '../http/route-module.js';
import { magicLinkLoginRoute } from './routes/magic-link-login.js';
import { passwordResetFinishRoute } from './routes/password-reset-finish.js';
import { sendLinkRoutes } from './routes/send-link.js';

/** E-mailed links: asking for a password-reset or sign-in link, and using one. */
export const emailLinksModule = routeModule([sendLinkRoutes, passwordResetFinishRoute, magicLinkLoginRoute]);
