// A Bearer call the API answered 401 means the session is over (revoked, expired, signed out
// elsewhere). Calls report it here and the session manager ends the session, in one place.

type Listener = () => void;
const listeners = new Set<Listener>();
// The session manager loads on demand: a refusal that came before it is kept, with the token refused.
let unheardToken: string | null = null;

export function onSessionRefused(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function notifySessionRefused(token: string): void {
  if (listeners.size === 0) unheardToken = token;
  for (const listener of listeners) listener();
}

/** Whether `token` was refused before anyone listened (asked once, by the session manager). */
export function takeUnheardRefusal(token: string | undefined): boolean {
  const refused = token !== undefined && token === unheardToken;
  unheardToken = null;
  return refused;
}
