// The server writes the runtime configuration into a <meta> tag, so one build serves every environment.
// This module only reads it and the lender's branding, without zod, so that the first paint stays
// small; the full PortalConfigSchema check lives in portal-config.ts, loaded with the identity provider.
// A missing or invalid configuration must not stop the app from rendering.

import { PORTAL_CONFIG_META_NAME } from '@customer-core/contracts';

export interface LenderBranding {
  name: string;
  websiteUrl: string | null;
  supportPhone: string | null;
}

// eslint-disable-next-line lingui/no-unlocalized-strings -- a name, used only where a lender has configured none
const FALLBACK_LENDER_NAME = 'Customer portal';

let raw: { value: unknown } | undefined;

function parseJson(content: string | undefined): unknown {
  if (!content) return null;
  try {
    return JSON.parse(content);
  } catch {
    return null;
  }
}

/** The configuration as written by the server, not validated: null when missing or not JSON. */
export function readRawPortalConfig(): unknown {
  if (!raw) {
    const content = document
      .querySelector(`meta[name="${PORTAL_CONFIG_META_NAME}"]`)
      ?.getAttribute('content')
      ?.trim();
    raw = { value: parseJson(content) };
  }
  return raw.value;
}

export function hasPortalConfig(): boolean {
  const value = readRawPortalConfig();
  return typeof value === 'object' && value !== null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

// The website address becomes a link: only http(s) addresses, never javascript: or data:.
function webAddress(value: unknown): string | null {
  const candidate = text(value);
  if (!candidate) return null;
  try {
    const url = new URL(candidate);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

let branding: LenderBranding | undefined;

export function getLenderBranding(): LenderBranding {
  if (!branding) {
    const lender = (readRawPortalConfig() as { lender?: Record<string, unknown> } | null)?.lender;
    branding = {
      name: text(lender?.name) ?? FALLBACK_LENDER_NAME,
      websiteUrl: webAddress(lender?.websiteUrl),
      supportPhone: text(lender?.supportPhone),
    };
  }
  return branding;
}
