import { operatorEndpoints, type AccountSession } from '@customer-core/contracts';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { formatInstant } from '../../loans/loan-format';
import { ActionDialog } from '../components/action-dialog';
import type { Notice } from '../components/action-notice';
import { ConsoleSection } from '../components/console-section';
import { ConsoleTable } from '../components/console-table';
import { LoadedView, useConsoleLoad } from '../components/load-state';
import { useConsoleApi } from '../session/console-api';
import { useMay } from '../shell/use-may';
import { SESSION_METHOD_LABELS } from './borrower-words';
import { deviceWords } from './device-words';

interface SessionsSectionProps {
  email: string;
  who: string;
  /** Changes when the page's data is loaded again (after an action). */
  refresh: number;
  noticeId: string;
  onDone(notice: Notice): void;
}

/** Where the borrower is signed in, newest first; each session can be ended, or all of them. */
export function SessionsSection({ email, who, refresh, noticeId, onDone }: SessionsSectionProps) {
  const { t, i18n } = useLingui();
  const api = useConsoleApi();
  const may = useMay();
  const [ending, setEnding] = useState<AccountSession | 'all' | null>(null);
  const { state, retry } = useConsoleLoad(
    (signal) => api.call(operatorEndpoints.sessions, { query: { email }, signal }),
    [email, refresh],
  );
  const sessions = state.kind === 'loaded' ? state.data.sessions : [];
  const mayEnd = may(operatorEndpoints.endSession);
  // The session being ended, as the dialog names it.
  const one = ending !== null && ending !== 'all' ? ending : null;
  const device = one ? deviceWords(one.device, i18n) : '';
  const lastActive = one ? formatInstant(one.lastActiveAt) : '';

  return (
    <ConsoleSection
      id="borrower-sessions"
      title={t`Sessions`}
      intro={t`Where the borrower is signed in now, newest first.`}
      actions={
        sessions.length > 0 &&
        may(operatorEndpoints.endAllSessions) && (
          <button
            type="button"
            className="button console-button--danger-outline console-button--small"
            onClick={() => setEnding('all')}
            data-testid="end-all-sessions"
          >
            <Trans>End every session</Trans>
          </button>
        )
      }
    >
      <LoadedView state={state} retry={retry}>
        {({ sessions: list }) =>
          list.length === 0 ? (
            <p className="console-empty">{t`The borrower isn’t signed in anywhere.`}</p>
          ) : (
            <ConsoleTable
              caption={t`Sessions`}
              testId="sessions-table"
              head={
                <>
                  <th scope="col">{t`Device`}</th>
                  <th scope="col">{t`Began`}</th>
                  <th scope="col">{t`Last active`}</th>
                  <th scope="col">{t`How`}</th>
                  <th scope="col">{t`Network`}</th>
                  {mayEnd && (
                    <th scope="col">
                      <span className="visually-hidden">{t`Actions`}</span>
                    </th>
                  )}
                </>
              }
            >
              {list.map((session) => (
                <tr key={session.id}>
                  <th scope="row">{deviceWords(session.device, i18n)}</th>
                  <td>
                    <time dateTime={session.createdAt}>{formatInstant(session.createdAt)}</time>
                  </td>
                  <td>
                    <time dateTime={session.lastActiveAt}>{formatInstant(session.lastActiveAt)}</time>
                  </td>
                  <td>{session.method ? i18n._(SESSION_METHOD_LABELS[session.method]) : '—'}</td>
                  <td className="console-code">{session.approximateAddress ?? '—'}</td>
                  {mayEnd && (
                    <td className="console-table__action">
                      <button
                        type="button"
                        className="button button--secondary console-button--small"
                        onClick={() => setEnding(session)}
                        data-testid="end-session"
                      >
                        <Trans>End session</Trans>
                        <span className="visually-hidden">
                          {' '}
                          ({deviceWords(session.device, i18n)}, {formatInstant(session.lastActiveAt)})
                        </span>
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </ConsoleTable>
          )
        }
      </LoadedView>

      {ending === 'all' && (
        <ActionDialog
          title={t`End every session`}
          description={
            <p>
              <Trans>
                <strong>{who}</strong> will be signed out on every device, here and at the identity provider.
              </Trans>
            </p>
          }
          confirmLabel={t`End every session`}
          busyText={t`Ending every session`}
          danger
          onConfirm={async (reason) => {
            const outcome = await api.call(operatorEndpoints.endAllSessions, { body: { email }, reason });
            if (!outcome.ok) return outcome.failure;
            const ended = outcome.data.ended;
            onDone({
              type: 'success',
              text: i18n._(msg`${plural(ended, { one: '# session ended.', other: '# sessions ended.' })}`),
            });
            return null;
          }}
          onClose={() => setEnding(null)}
          focusOnDone={noticeId}
          testId="end-all-sessions-dialog"
        />
      )}
      {one && (
        <ActionDialog
          title={t`End this session`}
          description={
            <p>
              <Trans>
                <strong>{who}</strong> will be signed out on {device} (last active {lastActive}), here and at
                the identity provider.
              </Trans>
            </p>
          }
          confirmLabel={t`End session`}
          busyText={t`Ending the session`}
          danger
          onConfirm={async (reason) => {
            const outcome = await api.call(
              operatorEndpoints.endSession,
              { params: { sessionId: one.id }, reason },
              { fallback: msg`That session had already ended.` },
            );
            if (!outcome.ok) return outcome.failure;
            onDone({ type: 'success', text: t`The session is ended.` });
            return null;
          }}
          onClose={() => setEnding(null)}
          focusOnDone={noticeId}
          testId="end-session-dialog"
        />
      )}
    </ConsoleSection>
  );
}
