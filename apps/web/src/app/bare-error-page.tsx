import { GenericError } from '../components/generic-error';
import { MAIN_CONTENT_ID } from '../components/layout/skip-link';
import '../components/layout/layout.css';

/** Last resort when the page layout itself failed: the generic error screen on its own. */
export function BareErrorPage() {
  return (
    <div className="page page--bare">
      <div className="page__content">
        <main id={MAIN_CONTENT_ID} className="content-card">
          <GenericError />
        </main>
      </div>
    </div>
  );
}
