import { routeModule } from '../http/route-module.js';
import { applicationRoutes } from './routes/applications.js';

/** Loan applications: starting one, and verifying its e-mail address. */
export const applicationsModule = routeModule([applicationRoutes]);
