import { z } from 'zod';
import { singleLineText } from '../text.js';

// Okta's Management API (its Users and Factors) as the portal's two servers speak it: the bundled
// identity provider answers it (users-api.ts, factors-api.ts), the API calls a hosted org's
// (identity/okta-directory.ts). Each body is defined once, here: the provider validates with it, the
// API's calls are typed by it. Of an answer, the fields the API reads, which the provider's carry.

/** The second factors both servers know, named as Okta names them (factor type and provider). */
export const TOTP_FACTOR = { factorType: 'token:software:totp', provider: 'GOOGLE' } as const;
export const EMAIL_FACTOR = { factorType: 'email', provider: 'OKTA' } as const;

// Okta's words for a missing field and for refused addresses; the lengths are its base profile's
// (the words for too long a value are ours).
export const BLANK_FIELD = 'The field cannot be left blank';
export const NOT_KEPT = 'is not kept by this organization';
const tooLong = (max: number) => `The field cannot exceed ${max} characters`;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/u;

const profileText = (max: number) => singleLineText().trim().min(1, BLANK_FIELD).max(max, tooLong(max));
const address = (refusal: string) => profileText(100).regex(EMAIL, refusal);

const isTimeZone = (value: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
};

/** A user's locale (Okta's profile.locale), e.g. en_US. */
export const UserLocaleValue = z.string().regex(/^[a-zA-Z]{2,3}([_-][a-zA-Z0-9]{2,8})*$/);
/** A new user's locale: en_US unless given. */
export const UserLocaleSchema = UserLocaleValue.default('en_US');

/** The portal's language as Okta's profile writes a locale: es-US is "es_US". */
export const oktaLocaleOf = (locale: string) => locale.replace(/-/g, '_');

/** A user's IANA time zone (Okta's profile.timeZone). */
export const UserTimeZoneSchema = z.string().refine(isTimeZone, 'unknown IANA time zone').default('UTC');

/** `credentials.password`: a plain value (Okta's imported hashes and hooks are not supported here). */
const PasswordCredential = z.strictObject({
  // The bound keeps hashing cheap to refuse, as for every password here.
  value: singleLineText().min(1, BLANK_FIELD).max(1024, tooLong(1024)),
});

/** POST /api/v1/users: an Okta-mastered user with a password. Other top-level members are ignored. */
export const CreateUserBody = z.object({
  // Strict: a profile property this organization cannot keep is refused rather than dropped.
  profile: z.strictObject({
    firstName: profileText(50),
    lastName: profileText(50),
    email: address('Does not match required pattern'),
    login: address('Username must be in the form of an email address'),
    locale: UserLocaleSchema,
    timeZone: UserTimeZoneSchema,
    mobilePhone: z.null({ error: NOT_KEPT }).optional(),
    secondEmail: z.null({ error: NOT_KEPT }).optional(),
  }),
  credentials: z.object({ password: PasswordCredential }),
});

/** Of a user's profile, what POST /api/v1/users/{id} may change here: the locale, nothing else. */
const ProfileChange = z.looseObject({ locale: UserLocaleValue.optional() }).superRefine((profile, ctx) => {
  const others = Object.keys(profile).filter((property) => property !== 'locale');
  if (others.length > 0)
    ctx.addIssue({
      code: 'custom',
      message: `only locale can be changed by this organization, not ${others.join(', ')}`,
    });
  else if (profile.locale === undefined) ctx.addIssue({ code: 'custom', message: BLANK_FIELD });
});

/**
 * POST /api/v1/users/{id}, Okta's partial update: the password (as an administrator sets it) and, of
 * the profile, the locale; at least one of them.
 */
export const UpdateUserBody = z
  .object({
    profile: ProfileChange.optional(),
    credentials: z.object({ password: PasswordCredential }).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.profile === undefined && body.credentials === undefined)
      ctx.addIssue({ code: 'custom', message: BLANK_FIELD, path: ['credentials'] });
  });

/** POST /api/v1/users/{id}/credentials/change_password: the user's old password and the new one. */
export const ChangePasswordBody = z.object({
  oldPassword: PasswordCredential,
  newPassword: PasswordCredential,
});

/** What enrolling a factor other than these is refused with. */
export const FACTORS_OFFERED = `only ${TOTP_FACTOR.factorType} (${TOTP_FACTOR.provider}) and ${EMAIL_FACTOR.factorType} (${EMAIL_FACTOR.provider}) are offered`;

/** POST /api/v1/users/{id}/factors: TOTP (Google Authenticator's) or e-mail (to the login). */
export const EnrolFactorBody = z.union(
  [
    z.object({ factorType: z.literal(TOTP_FACTOR.factorType), provider: z.literal(TOTP_FACTOR.provider) }),
    z.object({
      factorType: z.literal(EMAIL_FACTOR.factorType),
      provider: z.literal(EMAIL_FACTOR.provider),
      profile: z.object({ email: z.string().max(320) }),
    }),
  ],
  { error: FACTORS_OFFERED },
);

/** POST /api/v1/users/{id}/factors/{factorId}/lifecycle/activate: the factor's first code. */
export const ActivateFactorBody = z.object({ passCode: z.string().min(1).max(100) });

/** A user as the Users API answers it: the fields the API reads. */
export interface OktaUserFields {
  id: string;
  profile: {
    login: string;
    firstName?: string | null;
    lastName?: string | null;
    /** e.g. en_US (Okta's profile writes the region with an underscore). */
    locale?: string | null;
  };
}

/** A factor as the Factors API answers it: the fields the API reads. */
export interface OktaFactorFields {
  id: string;
  factorType: string;
  status: string;
  created: string;
  lastVerified?: string;
  /** Its fields depend on the factor's type; a webauthn factor's names it (authenticatorName). */
  profile?: { [field: string]: unknown; authenticatorName?: unknown };
  /** Only in the answer that enrols an authenticator app. */
  _embedded?: { activation?: { sharedSecret?: string | null } };
}
