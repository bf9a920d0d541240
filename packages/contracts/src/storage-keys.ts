// Browser localStorage keys (spec section 3).
export const ACCESS_TOKEN_STORAGE_KEY = 'mf_access_token';
export const PROFILE_STORAGE_KEY = 'mf-profile';
/** How a visitor chose to continue on the next-step preference screen, remembered on this device. */
export const NEXT_STEP_PREFERENCE_STORAGE_KEY = 'next-step-preference';
/** Marks a product session that stands alone, without an identity-provider session beside it. */
export const WITHOUT_IDP_SESSION_STORAGE_KEY = 'customer-core.without-idp-session';
/**
 * sessionStorage: the sign-in form's consecutive failures for the address last tried, so that it can
 * say password sign-in is paused (see SIGN_IN_LOCKOUT_FAILURES), whether or not the address has an account.
 */
export const SIGN_IN_FAILURES_STORAGE_KEY = 'customer-core.sign-in-failures';
/** The language a visitor chose on this browser, used before sign-in (the profile's wins after). */
export const LOCALE_STORAGE_KEY = 'customer-core.locale';
/**
 * sessionStorage: the staff console's session (its token and staff member), apart from any borrower's
 * session in this browser, and gone with the tab.
 */
export const CONSOLE_SESSION_STORAGE_KEY = 'customer-core.console-session';
