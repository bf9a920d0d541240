import {
  WEBHOOK_DELIVERY_STATUSES,
  webhookEndpoints,
  type WebhookDeliveryView,
  type WebhookEndpointView,
} from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { formatInstant } from '../../loans/loan-format';
import { ActionDialog } from '../components/action-dialog';
import type { Notice } from '../components/action-notice';
import { ConsoleSection } from '../components/console-section';
import { ConsoleTable } from '../components/console-table';
import { LoadedView, useConsoleLoad } from '../components/load-state';
import { SelectField } from '../components/select-field';
import { useConsoleApi } from '../session/console-api';
import { DELIVERY_STATUS_LABELS, DELIVERY_STATUS_TONES } from './webhook-words';

type DeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

interface DeliveriesSectionProps {
  endpoints: WebhookEndpointView[];
  refresh: number;
  noticeId: string;
  onDone(notice: Notice): void;
}

/** Deliveries, newest first, with the endpoint's last answer; each can be delivered again (replayed). */
export function DeliveriesSection({ endpoints, refresh, noticeId, onDone }: DeliveriesSectionProps) {
  const { t, i18n } = useLingui();
  const api = useConsoleApi();
  const [endpointId, setEndpointId] = useState('');
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
  const [replaying, setReplaying] = useState<WebhookDeliveryView | null>(null);
  const { state, retry } = useConsoleLoad(
    (signal) =>
      api.call(webhookEndpoints.deliveries, {
        query: { ...(endpointId ? { endpointId } : {}), ...(status ? { status } : {}) },
        signal,
      }),
    [endpointId, status, refresh],
  );
  const urlOf = (id: string) => endpoints.find((endpoint) => endpoint.id === id)?.url ?? id;
  const eventType = replaying?.type ?? '';
  const replayTo = replaying ? urlOf(replaying.endpointId) : '';

  return (
    <ConsoleSection
      id="webhook-deliveries"
      title={t`Deliveries`}
      intro={t`Newest first, with the endpoint’s last answer.`}
    >
      <div className="console-form__grid console-filters">
        <SelectField
          id="deliveries-endpoint"
          label={t`Endpoint`}
          select={{ value: endpointId, onChange: (event) => setEndpointId(event.target.value) }}
        >
          <option value="">{t`Every endpoint`}</option>
          {endpoints.map((endpoint) => (
            <option key={endpoint.id} value={endpoint.id}>
              {endpoint.url}
            </option>
          ))}
        </SelectField>
        <SelectField
          id="deliveries-status"
          label={t`Delivery`}
          select={{
            value: status,
            onChange: (event) => setStatus(event.target.value as DeliveryStatus | ''),
          }}
        >
          <option value="">{t`Any`}</option>
          {WEBHOOK_DELIVERY_STATUSES.map((value) => (
            <option key={value} value={value}>
              {i18n._(DELIVERY_STATUS_LABELS[value])}
            </option>
          ))}
        </SelectField>
      </div>
      <LoadedView state={state} retry={retry}>
        {({ deliveries }) =>
          deliveries.length === 0 ? (
            <p className="console-empty">{t`No delivery matches.`}</p>
          ) : (
            <ConsoleTable
              caption={t`Webhook deliveries`}
              testId="webhook-deliveries-table"
              head={
                <>
                  <th scope="col">{t`Created`}</th>
                  <th scope="col">{t`Event`}</th>
                  <th scope="col">{t`Endpoint`}</th>
                  <th scope="col">{t`Delivery`}</th>
                  <th scope="col" className="console-table__number">
                    {t`Attempts`}
                  </th>
                  <th scope="col">{t`Last answer`}</th>
                  <th scope="col">{t`Next attempt or delivered`}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t`Actions`}</span>
                  </th>
                </>
              }
            >
              {deliveries.map((delivery) => (
                <tr key={delivery.id}>
                  <td>
                    <time dateTime={delivery.createdAt}>{formatInstant(delivery.createdAt)}</time>
                  </td>
                  <th scope="row" className="console-code">
                    {delivery.type}
                  </th>
                  <td className="console-table__wrap console-code">{urlOf(delivery.endpointId)}</td>
                  <td>
                    <span className={`console-tag console-tag--${DELIVERY_STATUS_TONES[delivery.status]}`}>
                      {i18n._(DELIVERY_STATUS_LABELS[delivery.status])}
                    </span>
                  </td>
                  <td className="console-table__number">{delivery.attempts}</td>
                  <td className="console-table__wrap">
                    {delivery.lastStatus !== null && (
                      <span className="console-code">{delivery.lastStatus}</span>
                    )}
                    {delivery.lastResponse && (
                      <span className="console-cell-note console-code">{delivery.lastResponse}</span>
                    )}
                    {delivery.lastError && <span className="console-cell-note">{delivery.lastError}</span>}
                    {delivery.lastStatus === null && !delivery.lastError && '—'}
                  </td>
                  <td>
                    {delivery.deliveredAt ? (
                      <time dateTime={delivery.deliveredAt}>{formatInstant(delivery.deliveredAt)}</time>
                    ) : delivery.nextAttemptAt ? (
                      <time dateTime={delivery.nextAttemptAt}>{formatInstant(delivery.nextAttemptAt)}</time>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td className="console-table__action">
                    <button
                      type="button"
                      className="button button--secondary console-button--small"
                      onClick={() => setReplaying(delivery)}
                      data-testid="webhook-replay"
                    >
                      <Trans>Replay</Trans>
                      <span className="visually-hidden">
                        {' '}
                        {delivery.type}, {formatInstant(delivery.createdAt)}
                      </span>
                    </button>
                  </td>
                </tr>
              ))}
            </ConsoleTable>
          )
        }
      </LoadedView>
      {replaying && (
        <ActionDialog
          title={t`Replay the delivery`}
          description={
            <p>
              <Trans>
                The <strong className="console-code">{eventType}</strong> event will be delivered to{' '}
                <span className="console-code">{replayTo}</span> again, now, with the same webhook-id: a
                receiver that processed it already will see it’s the same event.
              </Trans>
            </p>
          }
          confirmLabel={t`Replay`}
          busyText={t`Replaying the delivery`}
          onConfirm={async (reason) => {
            const outcome = await api.call(webhookEndpoints.replayDelivery, {
              params: { deliveryId: replaying.id },
              reason,
            });
            if (!outcome.ok) return outcome.failure;
            onDone({ type: 'success', text: t`The ${eventType} event is on its way to ${replayTo} again.` });
            return null;
          }}
          onClose={() => setReplaying(null)}
          focusOnDone={noticeId}
          testId="webhook-replay-dialog"
        />
      )}
    </ConsoleSection>
  );
}
