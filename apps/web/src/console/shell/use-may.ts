import type { Endpoint } from '@customer-core/contracts';
import { useCallback } from 'react';
import { useStaff } from '../session/console-session-context';
import { staffMay } from '../lib/staff-access';

/** Whether the signed-in staff member may make a call of an endpoint (see staffMay). */
export function useMay(): (endpoint: Pick<Endpoint, 'staff'>) => boolean {
  const { role } = useStaff();
  return useCallback((endpoint) => staffMay(role, endpoint), [role]);
}
