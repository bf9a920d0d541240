import { routes } from '@customer-core/contracts';
import { msg } from '@lingui/core/macro';

/** The borrower's areas, in the order the navigation shows them (each label said with i18n._). */
export const BORROWER_AREAS = [
  { label: msg`Home`, to: routes.dashboard.path, end: true },
  { label: msg`Loans`, to: routes.loans.path, end: false },
  { label: msg`Documents`, to: routes.documents.path, end: false },
] as const;
