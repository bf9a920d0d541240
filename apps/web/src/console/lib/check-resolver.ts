import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';

/** A form's check: the request it sends, or what to fix in which field. */
export type Checked<F extends FieldValues, R> = { request: R } | { errors: FieldErrors<F> };

/**
 * react-hook-form's resolver for a form whose values become a request of the contracts (amounts in
 * dollars become cents, fields left empty are left out): the form's own check, run on submit and again
 * as a field in error is edited.
 */
export function checkResolver<F extends FieldValues, R>(check: (values: F) => Checked<F, R>): Resolver<F> {
  return (values) => {
    const checked = check(values);
    return 'errors' in checked ? { values: {}, errors: checked.errors } : { values, errors: {} };
  };
}
