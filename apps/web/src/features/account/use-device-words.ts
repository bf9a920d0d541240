import { useLingui } from '@lingui/react/macro';
import type { DeviceWords } from './device-name';

/** The words around a device's names ("{browser} on {system}"), in the page's language. */
export function useDeviceWords(): DeviceWords {
  const { t } = useLingui();
  return { browser: t`Browser`, on: (browser, system) => t`${browser} on ${system}` };
}
