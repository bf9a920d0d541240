import { SESSION_METHOD_LABELS, type AccountSession } from '@customer-core/contracts';
import { plural } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { formatInstant } from '../../loans/loan-format';
import { useLoad } from '../../lib/use-load';
import { endOtherSessions, endSession, getSessions } from './account-api';
import { SectionLoading, SectionNotice, type SectionNoticeText } from './section-parts';
import { deviceLabel } from './device-name';
import { groupByDevice, type DeviceGroup } from './session-groups';
import { useDeviceWords } from './use-device-words';
import { inPortalLanguage } from '../../i18n/in-portal-language';

/** When and how a session signed in, when it was last active, and from which network. */
function SessionDetails({ session }: { session: AccountSession }) {
  const how = session.method ? inPortalLanguage(SESSION_METHOD_LABELS[session.method]) : null;
  const signedIn = formatInstant(session.createdAt);
  const lastActive = formatInstant(session.lastActiveAt);
  return (
    <>
      <p>
        <Trans>Signed in {signedIn}</Trans>
        {how && <> · {how}</>}
      </p>
      <p>
        <Trans>Last active {lastActive}</Trans>
        <Network session={session} />
      </p>
    </>
  );
}

/** " · Network 203.0.113.7", where the API knows it. */
function Network({ session }: { session: AccountSession }) {
  const network = session.approximateAddress;
  if (!network) return null;
  return (
    <>
      {' · '}
      <Trans>Network {network}</Trans>
    </>
  );
}

interface SignOut {
  busy: boolean;
  signOut(session: AccountSession): void;
}

function SignOutButton({
  session,
  describedBy,
  busy,
  signOut,
}: SignOut & { session: AccountSession; describedBy: string }) {
  return (
    <button
      type="button"
      className="button button--secondary account-sessions__sign-out"
      disabled={busy}
      onClick={() => signOut(session)}
      aria-describedby={describedBy}
      data-testid="session-sign-out"
    >
      <Trans>Sign out</Trans>
    </button>
  );
}

/** One sign-in of a device with several, shown when the device is opened. */
function SessionItem({ session, ...actions }: SignOut & { session: AccountSession }) {
  const headingId = `session-${session.id}`;
  const signedIn = formatInstant(session.createdAt);
  const lastActive = formatInstant(session.lastActiveAt);
  return (
    <li className="account-sessions__item" data-testid="session-row" data-current={session.current}>
      <div className="account-sessions__text">
        <p className="account-sessions__when" id={headingId}>
          <Trans>Signed in {signedIn}</Trans>
          {session.method && <> · {inPortalLanguage(SESSION_METHOD_LABELS[session.method])}</>}
          {session.current && (
            <span className="account-sessions__this">
              <Trans>This browser</Trans>
            </span>
          )}
        </p>
        <p>
          <Trans>Last active {lastActive}</Trans>
          <Network session={session} />
        </p>
      </div>
      {!session.current && <SignOutButton session={session} describedBy={headingId} {...actions} />}
    </li>
  );
}

/**
 * A device (browser on system) and its sign-ins: one sign-in is shown in the row, several are counted,
 * with their latest activity, and listed when the row is opened, each signed out on its own.
 */
function DeviceItem({
  group,
  shown,
  onToggle,
  ...actions
}: SignOut & { group: DeviceGroup; shown: boolean; onToggle(): void }) {
  const { t } = useLingui();
  const [only] = group.sessions;
  const single = group.sessions.length === 1 ? only : undefined;
  const slug = group.device.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const headingId = `device-${slug}`;
  const listId = `device-${slug}-sessions`;
  const count = group.sessions.length;
  const lastActive = formatInstant(group.lastActiveAt);
  return (
    <li
      className="account-sessions__device-group"
      data-testid="session-device"
      data-current={group.current}
      aria-labelledby={headingId}
    >
      <div className="account-sessions__item">
        <div
          className="account-sessions__text"
          data-testid={single ? 'session-row' : undefined}
          data-current={single ? single.current : undefined}
        >
          <p className="account-sessions__device">
            <span id={headingId}>{group.device}</span>
            {group.current && (
              <span className="account-sessions__this">
                <Trans>This device</Trans>
              </span>
            )}
          </p>
          {single ? (
            <SessionDetails session={single} />
          ) : (
            <p data-testid="session-device-count">
              <Trans>
                <Plural value={count} one="# sign-in" other="# sign-ins" /> · Last active {lastActive}
              </Trans>
            </p>
          )}
        </div>
        {single ? (
          !single.current && <SignOutButton session={single} describedBy={headingId} {...actions} />
        ) : (
          <button
            type="button"
            className="button button--secondary account-sessions__sign-out"
            aria-expanded={shown}
            aria-controls={shown ? listId : undefined}
            aria-describedby={headingId}
            onClick={onToggle}
            data-testid="session-device-toggle"
          >
            {shown ? t`Hide sign-ins` : t`Show sign-ins`}
          </button>
        )}
      </div>
      {!single && shown && (
        <ul className="account-sessions__sessions" id={listId}>
          {group.sessions.map((session) => (
            <SessionItem key={session.id} session={session} {...actions} />
          ))}
        </ul>
      )}
    </li>
  );
}

/**
 * Where the borrower is signed in: the devices, each with its sign-ins, and signing out the others.
 * `refresh` changes when another section ended sessions (a password change), so the list loads again.
 */
export function SessionsSection({
  refresh = 0,
  onEnded,
}: {
  refresh?: number;
  /** Devices were signed out (the activity list then loads again). */
  onEnded?: () => void;
}) {
  const { t } = useLingui();
  const words = useDeviceWords();
  const { state, retry, reload } = useLoad(getSessions, [refresh]);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<SectionNoticeText | null>(null);
  // The devices whose sign-ins are listed.
  const [shown, setShown] = useState<ReadonlySet<string>>(new Set());

  // The button pressed goes with the session it signed out: the focus moves to what happened.
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

  const sessions = state.kind === 'loaded' ? state.sessions : [];
  const others = sessions.filter((s) => !s.current);
  const groups = groupByDevice(sessions, words);
  const signOut = (ending: AccountSession) => {
    const device = deviceLabel(ending.device, words);
    void act(
      () => endSession(ending.id),
      () => t`${device} is signed out.`,
    );
  };
  const toggle = (device: string) =>
    setShown((now) => {
      const next = new Set(now);
      if (!next.delete(device)) next.add(device);
      return next;
    });

  return (
    <section
      className="account__section account-sessions"
      aria-labelledby="account-sessions-title"
      data-testid="account-sessions"
    >
      <div className="account-row__summary">
        <div className="account-row__text">
          <h2 id="account-sessions-title">
            <Trans>Where you’re signed in</Trans>
          </h2>
          <p className="account-row__state">
            <Trans>If you don’t recognize a device, sign it out and change your password.</Trans>
          </p>
        </div>
        {others.length > 0 && (
          <button
            type="button"
            className="button button--secondary account-row__button"
            disabled={busy}
            onClick={() =>
              void act(
                endOtherSessions,
                (ended) =>
                  t`${plural(ended, {
                    one: 'Your other device is signed out.',
                    other: 'Your # other devices are signed out.',
                  })}`,
              )
            }
            data-testid="sign-out-everywhere-else"
          >
            {busy ? t`Signing out…` : t`Sign out everywhere else`}
          </button>
        )}
      </div>
      <SectionNotice notice={notice} testId="account-sessions-notice" />
      <SectionLoading state={state} retry={retry} />
      {state.kind === 'loaded' && (
        <ul className="account-sessions__list">
          {groups.map((group) => (
            <DeviceItem
              key={group.device}
              group={group}
              shown={shown.has(group.device)}
              onToggle={() => toggle(group.device)}
              busy={busy}
              signOut={signOut}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
