import { Trans } from '@lingui/react/macro';
import { Spinner } from './spinner';

/** The waiting state of spec section 2: exactly the text "Loading...". */
export function Loading() {
  return (
    <p className="loading" role="status" data-testid="loading">
      <Spinner />
      <Trans>Loading...</Trans>
    </p>
  );
}
