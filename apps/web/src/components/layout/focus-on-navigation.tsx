import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { MAIN_CONTENT_ID } from './skip-link';

/** How long a new page may take to show its heading (a screen loading on demand, then its data). */
const HEADING_WAIT_MS = 10_000;

// The path of the last page shown, across both layouts: going from a public screen to the signed-in
// shell mounts a new layout, and is still a navigation. Null until the first page, which the browser
// announces itself.
let lastPath: string | null = null;

// Redirects before the visitor has done anything (/ to sign-in, a guard) are still the first page of
// the visit: the focus stays at the top of the document, where the skip link is the first stop.
let visitorActed = false;
const noteAction = () => {
  visitorActed = true;
};
window.addEventListener('pointerdown', noteAction, { capture: true, once: true });
window.addEventListener('keydown', noteAction, { capture: true, once: true });

function mainHeading(): HTMLElement | null {
  return document.querySelector<HTMLElement>(`#${MAIN_CONTENT_ID} h1`);
}

function focusHeading(heading: HTMLElement) {
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  heading.focus({ preventScroll: true });
  window.scrollTo({ top: 0 });
}

/**
 * After a route change, the focus moves to the new page's main heading, which screen readers then
 * read out: the page has changed, and the next Tab starts from the top of it. A page that shows no
 * heading in time is announced by its title in a polite live region instead, so nothing is said twice.
 */
export function FocusOnNavigation() {
  const { pathname } = useLocation();
  // The title said for the page it belongs to: a later page starts quiet.
  const [announcement, setAnnouncement] = useState<{ pathname: string; title: string } | null>(null);

  useEffect(() => {
    const previous = lastPath;
    lastPath = pathname;
    if (previous === null || previous === pathname || !visitorActed) return;
    const heading = mainHeading();
    if (heading) {
      focusHeading(heading);
      return;
    }
    // The screen is still loading (on demand, or its data): wait for its heading.
    const observer = new MutationObserver(() => {
      const found = mainHeading();
      if (!found) return;
      stop();
      focusHeading(found);
    });
    const timer = window.setTimeout(() => {
      stop();
      setAnnouncement({ pathname, title: document.title });
    }, HEADING_WAIT_MS);
    const stop = () => {
      observer.disconnect();
      window.clearTimeout(timer);
    };
    observer.observe(document.body, { childList: true, subtree: true });
    return stop;
  }, [pathname]);

  return (
    <p className="visually-hidden" aria-live="polite" aria-atomic="true" data-testid="route-announcer">
      {announcement?.pathname === pathname ? announcement.title : ''}
    </p>
  );
}
