import { webhookEndpoints, type WebhookEndpointView } from '@customer-core/contracts';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { formatInstant } from '../../loans/loan-format';
import { ActionDialog } from '../components/action-dialog';
import type { Notice } from '../components/action-notice';
import { ConsoleSection } from '../components/console-section';
import { ConsoleTable } from '../components/console-table';
import { LoadedView, type LoadState } from '../components/load-state';
import { useConsoleApi } from '../session/console-api';

interface EndpointsSectionProps {
  state: LoadState<{ endpoints: WebhookEndpointView[] }>;
  retry(): void;
  noticeId: string;
  onDone(notice: Notice): void;
}

/** The lender's endpoints, each with the events it takes and whether it's on; each can be turned off or on. */
export function EndpointsSection({ state, retry, noticeId, onDone }: EndpointsSectionProps) {
  const { t } = useLingui();
  const api = useConsoleApi();
  const [switching, setSwitching] = useState<WebhookEndpointView | null>(null);
  const url = switching?.url ?? '';
  const turningOn = switching ? !switching.enabled : false;

  return (
    <ConsoleSection id="webhook-endpoints" title={t`Endpoints`}>
      <LoadedView state={state} retry={retry}>
        {({ endpoints }) =>
          endpoints.length === 0 ? (
            <p className="console-empty">{t`No endpoint yet. Add one below.`}</p>
          ) : (
            <ConsoleTable
              caption={t`Webhook endpoints`}
              testId="webhook-endpoints-table"
              head={
                <>
                  <th scope="col">{t`URL`}</th>
                  <th scope="col">{t`Events`}</th>
                  <th scope="col">{t`State`}</th>
                  <th scope="col">{t`Added`}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t`Actions`}</span>
                  </th>
                </>
              }
            >
              {endpoints.map((endpoint) => {
                const failures = endpoint.failuresInARow;
                return (
                  <tr key={endpoint.id}>
                    <th scope="row" className="console-table__wrap">
                      <span className="console-code">{endpoint.url}</span>
                      {endpoint.description && (
                        <span className="console-cell-note">{endpoint.description}</span>
                      )}
                    </th>
                    <td>
                      <ul className="console-chips">
                        {endpoint.eventTypes.map((type) => (
                          <li key={type} className="console-code">
                            {type}
                          </li>
                        ))}
                      </ul>
                    </td>
                    <td className="console-table__wrap">
                      {endpoint.enabled ? (
                        <span className="console-tag console-tag--good">{t`On`}</span>
                      ) : (
                        <span className="console-tag console-tag--bad">{t`Off`}</span>
                      )}
                      {endpoint.disabledReason && (
                        <span className="console-cell-note">{endpoint.disabledReason}</span>
                      )}
                      {failures > 0 && (
                        <span className="console-cell-note">
                          <Plural
                            value={failures}
                            one="# failed delivery in a row"
                            other="# failed deliveries in a row"
                          />
                        </span>
                      )}
                    </td>
                    <td>
                      <time dateTime={endpoint.createdAt}>{formatInstant(endpoint.createdAt)}</time>
                    </td>
                    <td className="console-table__action">
                      <button
                        type="button"
                        className="button button--secondary console-button--small"
                        onClick={() => setSwitching(endpoint)}
                        data-testid="webhook-switch"
                      >
                        {endpoint.enabled ? <Trans>Turn off</Trans> : <Trans>Turn on</Trans>}
                        <span className="visually-hidden"> {endpoint.url}</span>
                      </button>
                    </td>
                  </tr>
                );
              })}
            </ConsoleTable>
          )
        }
      </LoadedView>
      {switching && (
        <ActionDialog
          title={turningOn ? t`Turn the endpoint on` : t`Turn the endpoint off`}
          description={
            <p>
              {turningOn ? (
                <Trans>
                  Events will be delivered to <strong className="console-code">{url}</strong> again, and its
                  count of failures starts again.
                </Trans>
              ) : (
                <Trans>
                  No event will be delivered to <strong className="console-code">{url}</strong> until it’s
                  turned on again.
                </Trans>
              )}
            </p>
          }
          confirmLabel={turningOn ? t`Turn on` : t`Turn off`}
          busyText={turningOn ? t`Turning the endpoint on` : t`Turning the endpoint off`}
          danger={!turningOn}
          onConfirm={async (reason) => {
            const outcome = await api.call(webhookEndpoints.updateEndpoint, {
              params: { endpointId: switching.id },
              body: { enabled: turningOn },
              reason,
            });
            if (!outcome.ok) return outcome.failure;
            onDone({ type: 'success', text: turningOn ? t`${url} is on.` : t`${url} is off.` });
            return null;
          }}
          onClose={() => setSwitching(null)}
          focusOnDone={noticeId}
          testId="webhook-switch-dialog"
        />
      )}
    </ConsoleSection>
  );
}
