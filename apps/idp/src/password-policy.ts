/**
 * The org's password policy for passwords set through the Users API, as Okta's default policy checks
 * them. (Passwords the portal sets in-process follow the portal's own forms.)
 */
export interface PasswordPolicyOptions {
  /** Okta's default is 8. */
  minLength?: number;
  /** Okta's "does not include your first name / last name"; off in its default policy. */
  excludeAttributes?: Array<'firstName' | 'lastName'>;
}

export interface PasswordOwner {
  login: string;
  firstName: string;
  lastName: string;
}

export interface PasswordPolicy {
  accepts(password: string, owner: PasswordOwner): boolean;
  /** Okta's words for a refused password, listing what the policy asks. */
  refusal: string;
}

/** Parts shorter than this are not checked, as Okta does not (so "ed" of ed.jones may appear). */
const MIN_PART_LENGTH = 4;

const length = (text: string) => [...text].length;

/**
 * Okta's "no parts of your username": the login split at punctuation, each part of four characters
 * or more, leaving out the top-level domain ("com", "net": too common to refuse).
 */
export function usernameParts(login: string): string[] {
  const withoutTopLevelDomain = login.replace(/@(.*)\.[^.@]*$/u, '@$1');
  return withoutTopLevelDomain
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((part) => length(part) >= MIN_PART_LENGTH);
}

export function createPasswordPolicy(options: PasswordPolicyOptions = {}): PasswordPolicy {
  const minLength = options.minLength ?? 8;
  const exclude = new Set(options.excludeAttributes ?? []);
  const requirements = [
    `at least ${minLength} characters`,
    'a lowercase letter',
    'an uppercase letter',
    'a number',
    'no parts of your username',
    ...(exclude.has('firstName') ? ['does not include your first name'] : []),
    ...(exclude.has('lastName') ? ['does not include your last name'] : []),
  ];
  return {
    refusal: `Password requirements were not met. Password requirements: ${requirements.join(', ')}.`,
    accepts(password, owner) {
      const lower = password.toLowerCase();
      const excluded = [
        ...usernameParts(owner.login),
        ...(exclude.has('firstName') ? [owner.firstName] : []),
        ...(exclude.has('lastName') ? [owner.lastName] : []),
      ]
        .map((word) => word.trim().toLowerCase())
        .filter(Boolean);
      return (
        length(password) >= minLength &&
        /\p{Ll}/u.test(password) &&
        /\p{Lu}/u.test(password) &&
        /\p{Nd}/u.test(password) &&
        !excluded.some((word) => lower.includes(word))
      );
    },
  };
}
