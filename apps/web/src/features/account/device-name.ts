import { UNKNOWN_DEVICE, type Device } from '@customer-core/contracts';
import { inPortalLanguage } from '../../i18n/in-portal-language';

// Devices by name: a passkey's default name (what the borrower would call the device it is made on)
// and the devices the API recognised (sessions, security activity). The names below are the
// browsers' and systems' own, the same in every language; the words around them come from the page
// (DeviceWords, use-device-words.ts), in the borrower's language.
/* eslint-disable lingui/no-unlocalized-strings */

/** The words around the browser's and system's names, which the page gives in the borrower's language. */
export interface DeviceWords {
  /** A browser the name does not recognize. */
  browser: string;
  /** "Chrome on Windows". */
  on(browser: string, system: string): string;
}

/** Where no words are given (the name's own tests): English. */
const IN_ENGLISH: DeviceWords = { browser: 'Browser', on: (browser, system) => `${browser} on ${system}` };

/** A device the API recognised, in the page's words: "Chrome on Windows", one of the two, or "Unknown device". */
export function deviceLabel(device: Device | null, words: DeviceWords): string {
  const { browser, system } = device ?? { browser: null, system: null };
  if (browser && system) return words.on(browser, system);
  return browser ?? system ?? inPortalLanguage(UNKNOWN_DEVICE);
}

/** A name from the browser and system this passkey is made on, e.g. "Chrome on Windows". */
export function deviceName(userAgent = navigator.userAgent, words: DeviceWords = IN_ENGLISH): string {
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\/|Chromium\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : words.browser;
  const system = /iPhone/.test(userAgent)
    ? 'iPhone'
    : /iPad/.test(userAgent)
      ? 'iPad'
      : /Android/.test(userAgent)
        ? 'Android'
        : /Windows/.test(userAgent)
          ? 'Windows'
          : /Mac OS X/.test(userAgent)
            ? 'Mac'
            : /CrOS/.test(userAgent)
              ? 'Chromebook'
              : /Linux/.test(userAgent)
                ? 'Linux'
                : null;
  return system ? words.on(browser, system) : browser;
}
