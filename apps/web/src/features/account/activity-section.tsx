import {
  SECURITY_ACTIVITY_DAYS,
  securityEventLabel,
  SESSION_ENDED_BY_LABELS,
  SESSION_METHOD_LABELS,
  type SecurityEvent,
} from '@customer-core/contracts';
import type { I18n } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef } from 'react';
import { useLoad } from '../../lib/use-load';
import { formatInstant } from '../../loans/loan-format';
import { getActivity } from './activity-api';
import { SectionLoading } from './section-parts';
import { AccountRow } from './account-row';
import { inPortalLanguage } from '../../i18n/in-portal-language';
import { deviceLabel } from './device-name';
import { useDeviceWords } from './use-device-words';

type Loaded =
  | { kind: 'failed'; message: string }
  | {
      kind: 'loaded';
      events: SecurityEvent[];
      next: string | null;
      loadingOlder: boolean;
      /** Why the older page didn't load. */
      olderFailed: string | null;
    };

/** What happened, as the borrower reads it: "3 failed sign-in attempts" for a streak. */
function title(event: SecurityEvent, i18n: I18n): string {
  const attempts = event.attempts;
  if (event.kind === 'failed_sign_ins' && attempts)
    return i18n._(
      msg`${plural(attempts, { one: '# failed sign-in attempt', other: '# failed sign-in attempts' })}`,
    );
  return inPortalLanguage(securityEventLabel(event));
}

/** How: the sign-in's method or who signed the device out. */
function how(event: SecurityEvent): string | null {
  if (event.method) return inPortalLanguage(SESSION_METHOD_LABELS[event.method]);
  if (event.endedBy) return inPortalLanguage(SESSION_ENDED_BY_LABELS[event.endedBy]);
  return null;
}

function EventItem({ event }: { event: SecurityEvent }) {
  const { i18n } = useLingui();
  const words = useDeviceWords();
  const manner = how(event);
  const network = event.approximateAddress;
  return (
    <li className="account-activity__item" data-testid="activity-row" data-kind={event.kind} tabIndex={-1}>
      <p className="account-activity__what">
        {title(event, i18n)}
        {manner && <span className="account-activity__how"> · {manner}</span>}
      </p>
      <p>
        <time dateTime={event.occurredAt}>{formatInstant(event.occurredAt)}</time>
        {' · '}
        {deviceLabel(event.device, words)}
        {network && (
          <>
            {' · '}
            <Trans>Network {network}</Trans>
          </>
        )}
      </p>
    </li>
  );
}

/** The row's summary: the latest event, and when. */
function LatestEvent({ event }: { event: SecurityEvent }) {
  const { i18n } = useLingui();
  const what = title(event, i18n);
  const when = formatInstant(event.occurredAt);
  return (
    <Trans>
      Latest: {what}, <time dateTime={event.occurredAt}>{when}</time>
    </Trans>
  );
}

/**
 * What happened to the borrower's account lately: the row names the latest event; open, the list,
 * newest first, older pages on request. `refresh` changes when another section did something that
 * adds an event, so the list loads again.
 */
export function ActivitySection({ refresh = 0 }: { refresh?: number }) {
  const { t } = useLingui();
  const { state, setState, retry } = useLoad(
    async (signal): Promise<Loaded> => {
      const loaded = await getActivity(null, signal);
      return loaded.kind === 'loaded' ? { ...loaded, loadingOlder: false, olderFailed: null } : loaded;
    },
    [refresh],
  );
  // After "Show older activity", the focus goes to the first event it added.
  const firstAdded = useRef<number | null>(null);
  const listRef = useRef<HTMLUListElement>(null);

  useEffect(() => {
    if (firstAdded.current === null || state.kind !== 'loaded') return;
    const item = listRef.current?.children[firstAdded.current] as HTMLElement | undefined;
    firstAdded.current = null;
    item?.focus();
  }, [state]);

  async function showOlder(current: Extract<Loaded, { kind: 'loaded' }>) {
    if (!current.next) return;
    setState({ ...current, loadingOlder: true, olderFailed: null });
    const page = await getActivity(current.next);
    if (page.kind === 'failed')
      return setState({ ...current, loadingOlder: false, olderFailed: page.message });
    firstAdded.current = current.events.length;
    setState({
      kind: 'loaded',
      events: [...current.events, ...page.events],
      next: page.next,
      loadingOlder: false,
      olderFailed: null,
    });
  }

  const latest = state.kind === 'loaded' ? state.events[0] : undefined;
  const days = SECURITY_ACTIVITY_DAYS;
  return (
    <AccountRow
      row="activity"
      title={t`Recent security activity`}
      testId="account-activity"
      summary={
        state.kind !== 'loaded' ? (
          ''
        ) : latest ? (
          <LatestEvent event={latest} />
        ) : (
          t`${plural(days, { one: 'Nothing in the last day', other: 'Nothing in the last # days' })}`
        )
      }
      summaryTestId="account-activity-summary"
      action={state.kind === 'loaded' && latest ? t`Show` : null}
      actionTestId="account-activity-open"
      focusOnOpen={false}
      notices={<SectionLoading state={state} retry={retry} />}
    >
      {() =>
        state.kind === 'loaded' && (
          <div className="account-row__form account-row__form--wide">
            <p className="account-row__intro">
              <Trans>
                Sign-ins, devices signed out, password, authenticator app and passkey changes, and failed
                sign-ins of the last <Plural value={days} one="day" other="# days" />, newest first. If
                something wasn’t you, change your password.
              </Trans>
            </p>
            <ul className="account-activity__list" ref={listRef}>
              {state.events.map((event) => (
                <EventItem key={event.id} event={event} />
              ))}
            </ul>
            {state.olderFailed && (
              <p className="account__notice account__notice--problem" role="alert">
                {state.olderFailed}
              </p>
            )}
            {state.next && (
              <div className="form-actions">
                <button
                  type="button"
                  className="button button--secondary"
                  disabled={state.loadingOlder}
                  onClick={() => void showOlder(state)}
                  data-testid="activity-show-older"
                >
                  {state.loadingOlder ? t`Showing older activity…` : t`Show older activity`}
                </button>
              </div>
            )}
          </div>
        )
      }
    </AccountRow>
  );
}
