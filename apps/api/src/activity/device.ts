import { isIPv4, isIPv6 } from 'node:net';
import Bowser from 'bowser';
import type { Device } from '@customer-core/contracts';
import { networkOf } from '@customer-core/contracts/server';

/** The longest User-Agent kept: real ones are a few hundred characters. */
export const USER_AGENT_MAX_LENGTH = 512;

// The names bowser knows. For a User-Agent it does not recognise, bowser names the browser with
// whatever text the client sent ("Call 1-800-… now/1 (x)" is a browser called "Call 1-800-… now"):
// a stranger's words on the lender's page. Only these names are ever shown.
const BROWSER_NAMES = new Set(Object.values(Bowser.BROWSER_MAP));
const SYSTEM_NAMES = new Set(Object.values(Bowser.OS_MAP));

/** The device of a User-Agent, or null when the parser recognised neither its browser nor its system. */
export function deviceOf(userAgent: string | null): Device | null {
  const parts = deviceParts(userAgent);
  return parts.browser || parts.system ? parts : null;
}

/** The browser's and the system's names ("Chrome", "Windows"), each null unless recognised. */
export function deviceParts(userAgent: string | null): Device {
  if (!userAgent) return { browser: null, system: null };
  const { browser, os } = Bowser.parse(userAgent);
  return {
    browser: browser.name && BROWSER_NAMES.has(browser.name) ? browser.name : null,
    system: os.name && SYSTEM_NAMES.has(os.name) ? os.name : null,
  };
}

/**
 * The client's network, never its address: an IPv4 address's /24, an IPv6 address's /64. Enough for
 * a borrower to tell home from elsewhere, not enough to locate anyone. The address may be one the
 * directory logged, or a network already reduced (`2001:db8:1:2::/64`); anything that is no address
 * (a forwarded header's words) gives null.
 */
export function approximateAddress(address: string): string | null {
  const ip = address.replace(/\/\d{1,3}$/, '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  if (isIPv4(ip)) return `${ip.slice(0, ip.lastIndexOf('.'))}.0/24`;
  return isIPv6(ip) ? networkOf(ip) : null;
}
