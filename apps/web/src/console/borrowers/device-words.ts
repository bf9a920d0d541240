import type { Device } from '@customer-core/contracts';
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/** A device the API recognised, in the console's words: "Chrome on Windows", one of the two, or neither. */
export function deviceWords(device: Device | null, i18n: I18n): string {
  const { browser, system } = device ?? { browser: null, system: null };
  if (browser && system) return i18n._(msg`${browser} on ${system}`);
  return browser ?? system ?? i18n._(msg`Unknown device`);
}
