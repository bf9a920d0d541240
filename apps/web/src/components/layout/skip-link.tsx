import { Trans } from '@lingui/react/macro';
import type { MouseEvent } from 'react';

export const MAIN_CONTENT_ID = 'main-content';

/** The first focusable element of every page; visible only while focused. */
export function SkipLink() {
  // Move focus without touching the URL, so the router does not see a navigation.
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(MAIN_CONTENT_ID);
    if (!main) return;
    event.preventDefault();
    main.focus();
    main.scrollIntoView();
  };
  return (
    <a className="skip-link" href={`#${MAIN_CONTENT_ID}`} onClick={skip}>
      <Trans>Skip to main content</Trans>
    </a>
  );
}
