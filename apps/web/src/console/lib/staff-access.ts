import { roleAllows, type Endpoint, type StaffRole } from '@customer-core/contracts';

/**
 * Whether a staff member of `role` may make a call of `endpoint`: the one rule by which the console
 * offers an action, a page or a link (the API holds to the same with 403 forbidden). Only operators'
 * endpoints are open to staff at all.
 */
export function staffMay(role: StaffRole, endpoint: Pick<Endpoint, 'staff'>): boolean {
  return endpoint.staff !== null && roleAllows(role, endpoint.staff.role);
}
