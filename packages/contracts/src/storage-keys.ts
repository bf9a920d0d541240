// Browser localStorage keys (spec section 3).
export const ACCESS_TOKEN_STORAGE_KEY = 'mf_access_token';
export const PROFILE_STORAGE_KEY = 'mf-profile';
