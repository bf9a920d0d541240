import type { AccountSession } from '@customer-core/contracts';
import { deviceLabel, type DeviceWords } from './device-name';

// The borrower's sessions by device, as the account page lists them. The API lists sessions (each
// revocable on its own); grouping is how the page shows them, so it is done here, once.

export interface DeviceGroup {
  /** Browser on system ("Chrome on Linux") in the page's words, or "Unknown device". */
  device: string;
  /** Newest activity first, this browser's session before the rest. */
  sessions: AccountSession[];
  /** This browser's session is among them. */
  current: boolean;
  /** The latest activity of any of them. */
  lastActiveAt: string;
}

const newestFirst = (a: string, b: string) => Date.parse(b) - Date.parse(a);

/** Sessions with the same device label in one group: this device's group first, then by latest activity. */
export function groupByDevice(sessions: AccountSession[], words: DeviceWords): DeviceGroup[] {
  const byDevice = new Map<string, AccountSession[]>();
  for (const session of sessions) {
    const device = deviceLabel(session.device, words);
    byDevice.set(device, [...(byDevice.get(device) ?? []), session]);
  }
  const groups = [...byDevice].map(([device, members]): DeviceGroup => {
    const ordered = [...members].sort(
      (a, b) => Number(b.current) - Number(a.current) || newestFirst(a.lastActiveAt, b.lastActiveAt),
    );
    const lastActiveAt = [...members].sort((a, b) => newestFirst(a.lastActiveAt, b.lastActiveAt))[0]!
      .lastActiveAt;
    return { device, sessions: ordered, current: members.some((s) => s.current), lastActiveAt };
  });
  return groups.sort(
    (a, b) => Number(b.current) - Number(a.current) || newestFirst(a.lastActiveAt, b.lastActiveAt),
  );
}
