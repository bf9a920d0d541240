// A passkey's default name: what the borrower would call the device it is made on.
// The names below are the browsers' and systems' own, the same in every language; the words around
// them come from the page (DeviceWords), in the borrower's language.
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
