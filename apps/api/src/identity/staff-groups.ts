import type { StaffRole } from '@customer-core/contracts';

/**
 * The identity provider's groups that make the console's roles (CONSOLE_SUPPORT_GROUP and
 * CONSOLE_ADMIN_GROUP): the bundled provider's users are put in them by `npm run cli -- staff`; a
 * hosted org's admins put staff in them there, and send them in the ID token's `groups` claim.
 */
export type StaffGroups = Record<StaffRole, string>;

/** The role an ID token's groups give, the higher where both; null for anyone else (a borrower). */
export function staffRoleOf(groups: readonly string[] | null, names: StaffGroups): StaffRole | null {
  if (!groups) return null;
  if (groups.includes(names.admin)) return 'admin';
  if (groups.includes(names.support)) return 'support';
  return null;
}

/** The groups a staff user of the bundled provider is put in for a role: that role's only. */
export const groupsOfRole = (role: StaffRole | null, names: StaffGroups): string[] =>
  role ? [names[role]] : [];
