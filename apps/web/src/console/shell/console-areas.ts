import {
  auditEndpoints,
  consoleEndpoints,
  operatorEndpoints,
  routes,
  webhookEndpoints,
  type Endpoint,
  type StaffRole,
  consoleRoutes,
} from '@customer-core/contracts';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/** A part of the console: its page, its name, and the call that says which roles may open it. */
export interface ConsoleArea {
  to: string;
  label: MessageDescriptor;
  gate: Pick<Endpoint, 'staff'>;
}

export const CONSOLE_AREAS: readonly ConsoleArea[] = [
  { to: consoleRoutes.borrowers.path, label: msg`Borrowers`, gate: operatorEndpoints.borrowers },
  { to: consoleRoutes.loans.path, label: msg`Loans`, gate: operatorEndpoints.loans },
  // Its own words in the top bar, where they may be shorter than the page's title (Spanish).
  {
    to: consoleRoutes.audit.path,
    label: msg({ message: 'Audit trail', context: 'navigation' }),
    gate: auditEndpoints.records,
  },
  { to: consoleRoutes.webhooks.path, label: msg`Webhooks`, gate: webhookEndpoints.endpoints },
  { to: consoleRoutes.staff.path, label: msg`Staff`, gate: consoleEndpoints.staffUsers },
];

/** Each role as staff read it. */
export const ROLE_LABELS: Record<StaffRole, MessageDescriptor> = {
  support: msg`Support agent`,
  admin: msg`Admin`,
};

/** A console route's path under /console, as the console's own <Routes> match it. */
export const subPath = (route: { path: string }): string =>
  route.path.slice(`${routes.console.path}/`.length);
