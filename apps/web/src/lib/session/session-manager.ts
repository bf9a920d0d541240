import {
  ACCESS_TOKEN_STORAGE_KEY,
  decodeAccessToken,
  type DecodedAccessToken,
} from '@customer-core/contracts';
import { getPortalConfig } from '../../config/portal-config';
import { onSessionRefused, takeUnheardRefusal } from './session-refusals';
import { readRawAccessToken } from '../product-session';
import { watchActivity } from './activity';
import { refreshAccessToken, type RefreshOutcome } from './refresh-access-token';
import { DEFAULT_WARNING_SECONDS, REFRESH_RETRY_MS, nextStep } from './session-timing';

export interface ExpiryWarning {
  /** When the token expires, ms since the epoch. */
  expiresAt: number;
}

export interface SessionManagerOptions {
  /** The warning is due (an idle borrower's token is about to expire), or over (null). */
  onWarning: (warning: ExpiryWarning | null) => void;
  /** The token expired, a refresh was refused or a Bearer call answered 401: the session is over. */
  onEnded: () => void;
}

export interface SessionManager {
  /** "Stay signed in": refreshes now. False when the server could not be reached. */
  staySignedIn: () => Promise<boolean>;
  stop: () => void;
}

// setTimeout takes at most a signed 32-bit delay; a longer wait is simply looked at again.
const MAX_DELAY_MS = 2 ** 31 - 1;

/**
 * Keeps a signed-in borrower's product token fresh while they are active, warns an idle one before
 * it expires and reports the end of the session. One per tab, from sign-in (or page load) to sign-out.
 */
export function startSessionManager({ onWarning, onEnded }: SessionManagerOptions): SessionManager {
  const warningSeconds = getPortalConfig()?.session.warningSeconds ?? DEFAULT_WARNING_SECONDS;
  let token: DecodedAccessToken | null = null;
  let lastActivityAt: number | null = null;
  let warning: ExpiryWarning | null = null;
  let retryAt: number | null = null;
  let refreshing: Promise<boolean> | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const setWarning = (next: ExpiryWarning | null) => {
    if (next?.expiresAt === warning?.expiresAt) return;
    warning = next;
    onWarning(next);
  };

  const end = () => {
    if (stopped) return;
    stop();
    onEnded();
  };

  // The stored token is the truth: another tab may have refreshed it. Input so far was spent on the
  // previous token (told apart by order, not by time: the device's clock may jump).
  const adoptStoredToken = (): DecodedAccessToken | null => {
    const raw = readRawAccessToken();
    if (!raw) return null;
    if (raw !== token?.raw) {
      token = decodeAccessToken(raw);
      lastActivityAt = null;
      retryAt = null;
      setWarning(null);
    }
    return token;
  };

  const refresh = (): Promise<boolean> => {
    const known = token?.raw;
    if (!known) return Promise.resolve(false);
    refreshing ??= refreshAccessToken(known)
      .catch((): RefreshOutcome => ({ kind: 'failed' }))
      .then((outcome) => {
        refreshing = null;
        if (stopped) return false;
        if (outcome.kind === 'refused') {
          end();
          return false;
        }
        if (outcome.kind === 'failed') retryAt = Date.now() + REFRESH_RETRY_MS;
        // 'gone': the tab that ended the session told the app, which stops this manager.
        evaluate();
        return outcome.kind === 'refreshed';
      });
    return refreshing;
  };

  const schedule = (at: number) => {
    timer = setTimeout(evaluate, Math.min(Math.max(at - Date.now(), 0), MAX_DELAY_MS));
  };

  function evaluate() {
    clearTimeout(timer);
    if (stopped || refreshing) return;
    const current = adoptStoredToken();
    if (!current) return;
    const step = nextStep({
      token: current,
      now: Date.now(),
      lastActivityAt,
      warningSeconds,
      warning: warning !== null,
      retryAt,
    });
    if (step.kind === 'expire') return end();
    if (step.kind === 'refresh') return void refresh();
    if (step.kind === 'warn') {
      setWarning({ expiresAt: step.expiresAt });
      return schedule(step.expiresAt);
    }
    schedule(step.until);
  }

  // Input never closes the warning (nextStep keeps it until the borrower chooses), but coming back
  // to a tab whose timers were throttled in the background may find the token expired.
  const stopWatchingActivity = watchActivity((at) => {
    lastActivityAt = at;
    evaluate();
  });
  const onStorage = (event: StorageEvent) => {
    if (event.key === ACCESS_TOKEN_STORAGE_KEY && event.newValue) evaluate();
  };
  window.addEventListener('storage', onStorage);
  const stopListeningForRefusals = onSessionRefused(end);

  function stop() {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    stopWatchingActivity();
    stopListeningForRefusals();
    window.removeEventListener('storage', onStorage);
    setWarning(null);
  }

  evaluate();
  if (takeUnheardRefusal(readRawAccessToken() ?? undefined)) end();
  return {
    staySignedIn: async () => {
      if (stopped) return false;
      retryAt = null;
      return refresh();
    },
    stop,
  };
}
