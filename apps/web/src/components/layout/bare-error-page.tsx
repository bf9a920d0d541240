import { GenericError } from '../generic-error';
import { MAIN_CONTENT_ID } from './skip-link';
import './layout.css';

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
