// Replaced at build time by vite.config.ts `define`, from the root package.json.
declare const __APP_NAME__: string;
declare const __APP_VERSION__: string;

// A Lingui catalog (src/locales/*.po), compiled by @lingui/vite-plugin when imported.
declare module '*.po' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}
