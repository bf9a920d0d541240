import { useEffect, type RefObject } from 'react';

/**
 * A refused code (wrong, or too short) moves the focus back to its field, which reads out the message
 * it is described by. The field was disabled while the code was checked, so the focus had fallen to
 * the page; the same message twice still moves it, as the field comes back each time.
 */
export function useFocusOnRefusal(
  field: RefObject<HTMLInputElement | null>,
  error: string | undefined,
  pending: boolean,
): void {
  useEffect(() => {
    if (error && !pending) field.current?.focus();
  }, [field, error, pending]);
}
