import type { AddStaffUserRequest, StaffRole, StaffUser } from '@customer-core/contracts';
import type { EmailLinks } from '../email-links/email-links.js';
import type { Directory, DirectoryStaffUser } from '../identity/directory.js';
import type { ConsoleSessionRepository } from './console-session-repository.js';
import { groupsOfRole, staffRoleOf, type StaffGroups } from '../identity/staff-groups.js';

export type StaffChange = { kind: 'changed' } | { kind: 'not_found' } | { kind: 'with_provider' };

/**
 * The console's staff users, where the portal owns the users (the bundled identity provider): each in
 * the group of their role. A new one gets the password-reset e-mail to set their password, and adds
 * a second factor at their first sign-in (the provider asks every staff user for one). A change of
 * role, or its removal, ends their console sessions: the next sign-in carries the new groups.
 */
export function staffUsers(deps: {
  directory: Pick<Directory, 'issuer' | 'staff'>;
  groups: StaffGroups;
  consoleSessions: Pick<ConsoleSessionRepository, 'endAllOf'>;
  emailLinks: Pick<EmailLinks, 'request'>;
}) {
  const { directory, groups, consoleSessions, emailLinks } = deps;
  const toStaffUser = (user: DirectoryStaffUser): StaffUser => ({
    id: user.id,
    email: user.login,
    firstName: user.firstName,
    lastName: user.lastName,
    role: staffRoleOf(user.groups, groups)!,
    createdAt: user.createdAt.toISOString(),
  });

  return {
    /** Undefined: staff live in the lender's hosted org. */
    async list(): Promise<StaffUser[] | undefined> {
      if (!directory.staff) return undefined;
      return (await directory.staff.inGroups(Object.values(groups))).map(toStaffUser);
    },

    async add(
      request: AddStaffUserRequest,
      client: string,
    ): Promise<{ kind: 'added'; user: StaffUser } | { kind: 'login_taken' } | { kind: 'with_provider' }> {
      if (!directory.staff) return { kind: 'with_provider' };
      const created = await directory.staff.create({
        login: request.email,
        firstName: request.firstName,
        lastName: request.lastName,
        groups: groupsOfRole(request.role, groups),
      });
      if (!created.ok) return { kind: 'login_taken' };
      await emailLinks.request('password_reset', { email: request.email, client });
      return { kind: 'added', user: toStaffUser(created.user) };
    },

    async change(id: string, role: StaffRole | null): Promise<StaffChange> {
      if (!directory.staff) return { kind: 'with_provider' };
      // Only a staff user's role changes here: a borrower is never made staff by id.
      if (!staffRoleOf(await directory.staff.groupsOf(id), groups)) return { kind: 'not_found' };
      await directory.staff.setGroups(id, groupsOfRole(role, groups));
      await consoleSessions.endAllOf(directory.issuer, id);
      return { kind: 'changed' };
    },
  };
}

export type StaffUsers = ReturnType<typeof staffUsers>;
