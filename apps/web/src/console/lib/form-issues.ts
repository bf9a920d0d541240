import type { FieldError, FieldErrors, FieldValues } from 'react-hook-form';

/** A zod issue, as far as the forms read it. */
interface Issue {
  path: PropertyKey[];
  message: string;
}

/**
 * The first message for each of a form's fields, from the issues of a contract's schema checked on
 * the request the form builds: `fieldOf` names the form's field for an issue's path (null: not a
 * field's, e.g. terms that contradict each other), `own` the form's own words for a field, where the
 * contract's are written for the command line.
 */
export function fieldErrorsOf<F extends FieldValues>(
  issues: readonly Issue[],
  fieldOf: (path: PropertyKey[]) => keyof F | null,
  own: Partial<Record<keyof F, string>> = {},
): FieldErrors<F> {
  const errors: Partial<Record<keyof F, FieldError>> = {};
  for (const issue of issues) {
    const field = fieldOf(issue.path);
    if (field === null || errors[field]) continue;
    errors[field] = { type: 'validate', message: own[field] ?? issue.message };
  }
  return errors as FieldErrors<F>;
}
