import Bowser from 'bowser';
import { networkOf } from '@customer-core/idp';

/** The longest User-Agent kept: real ones are a few hundred characters. */
export const USER_AGENT_MAX_LENGTH = 512;

/** "Chrome on Windows", or just one of the two, or null when the client named neither. */
export function describeDevice(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const { browser, os } = Bowser.parse(userAgent);
  const parts = [browser.name, os.name].filter((part): part is string => !!part);
  return parts.length > 0 ? parts.join(' on ') : null;
}

/**
 * The client's network, never its address: an IPv4 address's /24, an IPv6 address's /64. Enough for
 * a borrower to tell home from elsewhere, not enough to locate anyone.
 */
export function approximateAddress(address: string): string | null {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/.exec(address);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.0/24`;
  return address.includes(':') ? networkOf(address) : null;
}
