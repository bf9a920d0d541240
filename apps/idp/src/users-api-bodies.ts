import { z } from 'zod';
import { singleLineText } from '@customer-core/contracts';
import { apiValidationFailed, malformedRequest, type OktaError } from './okta-errors.js';
import { NewUserSchema } from './users.js';

// Okta's words for a missing field and for refused addresses; the lengths are its base profile's
// (the words for too long a value are ours).
const BLANK = 'The field cannot be left blank';
const tooLong = (max: number) => `The field cannot exceed ${max} characters`;
const NOT_KEPT = 'is not kept by this organization';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/u;

const profileText = (max: number) => singleLineText().trim().min(1, BLANK).max(max, tooLong(max));
const address = (refusal: string) => profileText(100).regex(EMAIL, refusal);

/** `credentials.password`: a plain value (Okta's imported hashes and hooks are not supported here). */
const PasswordCredential = z.strictObject({
  // The bound keeps hashing cheap to refuse, as for every password here.
  value: singleLineText().min(1, BLANK).max(1024, tooLong(1024)),
});

/** POST /api/v1/users: an Okta-mastered user with a password. Other top-level members are ignored. */
export const CreateUserBody = z.object({
  // Strict: a profile property this organization cannot keep is refused rather than dropped.
  profile: z.strictObject({
    firstName: profileText(50),
    lastName: profileText(50),
    email: address('Does not match required pattern'),
    login: address('Username must be in the form of an email address'),
    locale: NewUserSchema.shape.locale,
    timeZone: NewUserSchema.shape.timeZone,
    mobilePhone: z.null({ error: NOT_KEPT }).optional(),
    secondEmail: z.null({ error: NOT_KEPT }).optional(),
  }),
  credentials: z.object({ password: PasswordCredential }),
});

/** POST /api/v1/users/{id}: only the password can be changed here. */
export const UpdateUserBody = z.object({
  profile: z.undefined({ error: 'changing the profile is not supported by this organization' }).optional(),
  credentials: z.object({ password: PasswordCredential }),
});

/** POST /api/v1/users/{id}/credentials/change_password: the user's old password and the new one. */
export const ChangePasswordBody = z.object({
  oldPassword: PasswordCredential,
  newPassword: PasswordCredential,
});

/** The field Okta names for an issue: the profile property, or `password` for any credential. */
function fieldOf(path: readonly PropertyKey[]): string {
  if (path[0] === 'credentials') return 'password';
  if (path[0] === 'oldPassword' || path[0] === 'newPassword') return path[0];
  const last = path.at(-1);
  return typeof last === 'string' ? last : 'body';
}

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let value = body;
  for (const key of path)
    value =
      value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

/**
 * The body, or the refusal Okta would send: E0000003 when it is not a JSON object, E0000001 naming
 * each refused field ("login: ...") and the first of them in the summary.
 */
export function parseOktaBody<T>(
  schema: z.ZodType<T>,
  body: unknown,
): { success: true; data: T } | { success: false; error: OktaError } {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return { success: false, error: malformedRequest() };
  const parsed = schema.safeParse(body);
  if (parsed.success) return { success: true, data: parsed.data };
  const causes = parsed.error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((key) => ({ field: key, message: NOT_KEPT }));
    const field = fieldOf(issue.path);
    const missing = issue.code === 'invalid_type' && valueAt(body, issue.path) == null;
    return [{ field, message: missing ? BLANK : issue.message }];
  });
  return {
    success: false,
    error: apiValidationFailed(
      causes[0]?.field ?? 'body',
      causes.map(({ field, message }) => `${field}: ${message}`),
    ),
  };
}
