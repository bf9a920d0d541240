import { GenericError } from '../../components/generic-error';

// Screens of later work are not built yet: their routes show the generic error screen, never a stand-in.
// Spec section 2 loads some of them on demand, so this module is also the lazy chunk they resolve to.
export default function PendingScreen() {
  return <GenericError />;
}
