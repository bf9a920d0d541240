import { useLoad } from '../../lib/use-load';
import { lookupInvitation } from './registration-api';

/** The invitation behind the page's token, with a way to try again after a failure. */
export const useInvitation = (token: string) => useLoad((signal) => lookupInvitation(token, signal), [token]);
