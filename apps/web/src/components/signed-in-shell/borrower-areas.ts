import { routes } from '@customer-core/contracts';

/** The borrower's areas, in the order the navigation shows them. */
export const BORROWER_AREAS = [
  { label: 'Home', to: routes.dashboard.path, end: true },
  { label: 'Loans', to: routes.loans.path, end: false },
  { label: 'Documents', to: routes.documents.path, end: false },
] as const;
