import { operatorEndpoints, type SentMailSchema } from '@customer-core/contracts';
import { useLingui } from '@lingui/react/macro';
import type { z } from 'zod';
import { formatInstant } from '../../loans/loan-format';
import { ConsoleSection } from '../components/console-section';
import { ConsoleTable } from '../components/console-table';
import { LoadedView, useConsoleLoad } from '../components/load-state';
import { useConsoleApi } from '../session/console-api';
import { MAIL_KIND_LABELS, MAIL_STATUS_LABELS } from './borrower-words';

type SentMail = z.infer<typeof SentMailSchema>;
const TONES: Record<SentMail['status'], string> = {
  pending: 'info',
  sending: 'info',
  sent: 'good',
  dead: 'bad',
};

/** The email sent to the borrower's address, newest first: what kind, and whether it went out. */
export function MailSection({ email, refresh }: { email: string; refresh: number }) {
  const { t, i18n } = useLingui();
  const api = useConsoleApi();
  const { state, retry } = useConsoleLoad(
    (signal) => api.call(operatorEndpoints.sentMail, { query: { email }, signal }),
    [email, refresh],
  );
  return (
    <ConsoleSection
      id="borrower-mail"
      title={t`Email sent`}
      intro={t`The messages to ${email}, newest first, and whether each went out. Their text isn’t kept here: links in them work once.`}
    >
      <LoadedView state={state} retry={retry}>
        {({ messages }) =>
          messages.length === 0 ? (
            <p className="console-empty">{t`No email has been sent to this address.`}</p>
          ) : (
            <ConsoleTable
              caption={t`Email sent`}
              testId="mail-table"
              head={
                <>
                  <th scope="col">{t`Queued`}</th>
                  <th scope="col">{t`Kind`}</th>
                  <th scope="col">{t`Delivery`}</th>
                  <th scope="col" className="console-table__number">
                    {t`Attempts`}
                  </th>
                  <th scope="col">{t`Sent`}</th>
                  <th scope="col">{t`Last error`}</th>
                </>
              }
            >
              {messages.map((message) => (
                <tr key={message.id} data-status={message.status}>
                  <td>
                    <time dateTime={message.createdAt}>{formatInstant(message.createdAt)}</time>
                  </td>
                  <th scope="row">
                    {Object.hasOwn(MAIL_KIND_LABELS, message.kind) ? (
                      i18n._(MAIL_KIND_LABELS[message.kind]!)
                    ) : (
                      <span className="console-code">{message.kind}</span>
                    )}
                  </th>
                  <td>
                    <span className={`console-tag console-tag--${TONES[message.status]}`}>
                      {i18n._(MAIL_STATUS_LABELS[message.status])}
                    </span>
                  </td>
                  <td className="console-table__number">{message.attempts}</td>
                  <td>
                    {message.sentAt ? (
                      <time dateTime={message.sentAt}>{formatInstant(message.sentAt)}</time>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td className="console-table__wrap console-code">{message.lastError ?? '—'}</td>
                </tr>
              ))}
            </ConsoleTable>
          )
        }
      </LoadedView>
    </ConsoleSection>
  );
}
