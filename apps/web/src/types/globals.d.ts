// Replaced at build time by vite.config.ts `define`, from the root package.json.
declare const __APP_NAME__: string;
declare const __APP_VERSION__: string;
