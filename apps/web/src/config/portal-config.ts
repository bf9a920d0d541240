import { PortalConfigSchema, type PortalConfig } from '@customer-core/contracts';
import { readRawPortalConfig } from './portal-config-meta';

let config: { value: PortalConfig | null } | undefined;

/** The portal configuration checked with PortalConfigSchema, or null when it is missing or invalid. */
export function getPortalConfig(): PortalConfig | null {
  if (!config) {
    const raw = readRawPortalConfig();
    const parsed = PortalConfigSchema.safeParse(raw);
    if (!parsed.success) {
      console.warn(
        raw === null
          ? 'Portal configuration is missing: sign-in is unavailable.'
          : 'Portal configuration is invalid: sign-in is unavailable.',
      );
    }
    config = { value: parsed.success ? parsed.data : null };
  }
  return config.value;
}
