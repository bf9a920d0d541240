import { SESSION_METHOD_LABELS, UNKNOWN_DEVICE, type AccountSession } from '@customer-core/contracts';
import { useState } from 'react';
import { formatInstant } from '../../loans/loan-format';
import { useLoad } from '../../lib/use-load';
import { endOtherSessions, endSession, getSessions } from './account-api';
import { SectionLoading, SectionNotice } from './section-parts';

const deviceName = (session: AccountSession) => session.device ?? UNKNOWN_DEVICE;

function SessionItem({
  session,
  busy,
  onSignOut,
}: {
  session: AccountSession;
  busy: boolean;
  onSignOut: (session: AccountSession) => void;
}) {
  const headingId = `session-${session.id}`;
  const how = session.method ? SESSION_METHOD_LABELS[session.method] : null;
  return (
    <li
      className="account-sessions__item"
      data-testid="session-row"
      data-current={session.current}
      aria-labelledby={headingId}
    >
      <div className="account-sessions__text">
        <p className="account-sessions__device">
          <span id={headingId}>{deviceName(session)}</span>
          {session.current && <span className="account-sessions__this">This device</span>}
        </p>
        <p>
          Signed in {formatInstant(session.createdAt)}
          {how && <> · {how}</>}
        </p>
        <p>
          Last active {formatInstant(session.lastActiveAt)}
          {session.approximateAddress && <> · Network {session.approximateAddress}</>}
        </p>
      </div>
      {!session.current && (
        <button
          type="button"
          className="button button--secondary account-sessions__sign-out"
          disabled={busy}
          onClick={() => onSignOut(session)}
          aria-describedby={headingId}
          data-testid="session-sign-out"
        >
          Sign out
        </button>
      )}
    </li>
  );
}

/**
 * Where the borrower is signed in: every active session, and signing out the others. `refresh`
 * changes when another section ended sessions (a password change), so the list loads again.
 */
export function SessionsSection({
  refresh = 0,
  onEnded,
}: {
  refresh?: number;
  /** Devices were signed out (the activity list then loads again). */
  onEnded?: () => void;
}) {
  const { state, retry, reload } = useLoad(getSessions, [refresh]);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: 'done' | 'problem'; text: string } | null>(null);
  // The button pressed goes with the device it signed out: the focus moves to what happened.

  async function act(
    run: () => Promise<{ ok: true; ended: number } | { ok: false; message: string }>,
    done: (ended: number) => string,
  ) {
    setBusy(true);
    setNotice(null);
    const outcome = await run();
    setBusy(false);
    if (outcome.ok) onEnded?.();
    setNotice(
      outcome.ok ? { tone: 'done', text: done(outcome.ended) } : { tone: 'problem', text: outcome.message },
    );
    reload();
  }

  const others = state.kind === 'loaded' ? state.sessions.filter((s) => !s.current) : [];

  return (
    <section
      className="account__section"
      aria-labelledby="account-sessions-title"
      data-testid="account-sessions"
    >
      <header className="account__section-header">
        <h2 id="account-sessions-title">Where you’re signed in</h2>
        <p>
          The devices signed in to your account now. If you don’t recognize one, sign it out and change your
          password.
        </p>
      </header>
      <SectionNotice notice={notice} testId="account-sessions-notice" />
      <SectionLoading state={state} retry={retry} />
      {state.kind === 'loaded' && (
        <>
          <ul className="account-sessions__list">
            {state.sessions.map((session) => (
              <SessionItem
                key={session.id}
                session={session}
                busy={busy}
                onSignOut={(ending) =>
                  void act(
                    () => endSession(ending.id),
                    () => `${deviceName(ending)} is signed out.`,
                  )
                }
              />
            ))}
          </ul>
          {others.length > 0 && (
            <p className="account__actions">
              <button
                type="button"
                className="button button--secondary"
                disabled={busy}
                onClick={() =>
                  void act(endOtherSessions, (ended) =>
                    ended === 1
                      ? 'Your other device is signed out.'
                      : `Your ${ended} other devices are signed out.`,
                  )
                }
                data-testid="sign-out-everywhere-else"
              >
                {busy ? 'Signing out…' : 'Sign out everywhere else'}
              </button>
            </p>
          )}
        </>
      )}
    </section>
  );
}
