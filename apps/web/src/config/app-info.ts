// The product's name and version (spec section 1), injected at build time from the root package.json.
export const APP_NAME: string = __APP_NAME__;
export const APP_VERSION: string = __APP_VERSION__;
