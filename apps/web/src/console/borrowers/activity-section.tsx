import {
  SECURITY_ACTIVITY_DAYS,
  operatorEndpoints,
  securityEventLabel,
  type SecurityEvent,
  type SecurityActivityPage,
} from '@customer-core/contracts';
import type { I18n } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { inPortalLanguage } from '../../i18n/in-portal-language';
import { formatInstant } from '../../loans/loan-format';
import { ConsoleSection } from '../components/console-section';
import { ConsoleTable } from '../components/console-table';
import { LoadedView, useConsoleLoad } from '../components/load-state';
import { useConsoleApi } from '../session/console-api';
import { SESSION_ENDED_BY_LABELS, SESSION_METHOD_LABELS } from './borrower-words';
import { deviceWords } from './device-words';

/** What happened: the contracts' label (in the portal's catalogue), a streak of failures counted. */
function what(event: SecurityEvent, i18n: I18n): string {
  const attempts = event.attempts;
  if (event.kind === 'failed_sign_ins' && attempts)
    return i18n._(
      msg`${plural(attempts, { one: '# failed sign-in attempt', other: '# failed sign-in attempts' })}`,
    );
  return inPortalLanguage(securityEventLabel(event));
}

/** How: the sign-in's method, or who ended the session. */
function how(event: SecurityEvent, i18n: I18n): string {
  if (event.method) return i18n._(SESSION_METHOD_LABELS[event.method]);
  if (event.endedBy) return i18n._(SESSION_ENDED_BY_LABELS[event.endedBy]);
  return '—';
}

/** The borrower's security activity of the last 90 days, newest first, a page at a time. */
export function ActivitySection({ email, refresh }: { email: string; refresh: number }) {
  const { t, i18n } = useLingui();
  const api = useConsoleApi();
  const [older, setOlder] = useState<{ events: SecurityEvent[]; next: string | null } | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderFailed, setOlderFailed] = useState<string | null>(null);
  const { state, retry } = useConsoleLoad(
    async (signal) => {
      const outcome = await api.call(operatorEndpoints.activity, { query: { email }, signal });
      if (!signal.aborted) setOlder(null);
      return outcome;
    },
    [email, refresh],
  );

  const showOlder = async (next: string) => {
    setLoadingOlder(true);
    setOlderFailed(null);
    const outcome = await api.call(operatorEndpoints.activity, { query: { email, after: next } });
    setLoadingOlder(false);
    if (!outcome.ok) return setOlderFailed(outcome.failure.quiet ? null : outcome.failure.message);
    setOlder((current) => ({
      events: [...(current?.events ?? []), ...outcome.data.events],
      next: outcome.data.next,
    }));
  };

  const days = SECURITY_ACTIVITY_DAYS;
  return (
    <ConsoleSection
      id="borrower-activity"
      title={t`Security activity`}
      intro={t`Sign-ins, sessions ended, password and second-factor changes, failed sign-ins and lockouts of the last ${days} days, newest first.`}
    >
      <LoadedView state={state} retry={retry}>
        {(first: SecurityActivityPage) => {
          const events = [...first.events, ...(older?.events ?? [])];
          const next = older ? older.next : first.next;
          if (events.length === 0)
            return <p className="console-empty">{t`Nothing in the last ${days} days.`}</p>;
          return (
            <>
              <ConsoleTable
                caption={t`Security activity`}
                testId="activity-table"
                head={
                  <>
                    <th scope="col">{t`When`}</th>
                    <th scope="col">{t`What`}</th>
                    <th scope="col">{t`How`}</th>
                    <th scope="col">{t`Device`}</th>
                    <th scope="col">{t`Network`}</th>
                  </>
                }
              >
                {events.map((event) => (
                  <tr key={event.id} data-kind={event.kind}>
                    <td>
                      <time dateTime={event.occurredAt}>{formatInstant(event.occurredAt)}</time>
                    </td>
                    <th scope="row">{what(event, i18n)}</th>
                    <td>{how(event, i18n)}</td>
                    <td>{event.device ? deviceWords(event.device, i18n) : '—'}</td>
                    <td className="console-code">{event.approximateAddress ?? '—'}</td>
                  </tr>
                ))}
              </ConsoleTable>
              {olderFailed && (
                <p className="console-problem" role="alert">
                  {olderFailed}
                </p>
              )}
              {next && (
                <div className="console-actions">
                  <button
                    type="button"
                    className="button button--secondary console-button--small"
                    disabled={loadingOlder}
                    onClick={() => void showOlder(next)}
                    data-testid="activity-older"
                  >
                    {loadingOlder ? t`Showing older activity…` : t`Show older activity`}
                  </button>
                </div>
              )}
            </>
          );
        }}
      </LoadedView>
      <p className="visually-hidden" role="status">
        {loadingOlder ? <Trans>Loading older activity</Trans> : ''}
      </p>
    </ConsoleSection>
  );
}
