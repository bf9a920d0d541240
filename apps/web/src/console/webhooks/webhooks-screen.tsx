import { webhookEndpoints } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { useCallback, useState } from 'react';
import { ActionNotice, type Notice } from '../components/action-notice';
import { ConsolePage } from '../components/console-page';
import { useConsoleLoad } from '../components/load-state';
import { useConsoleApi } from '../session/console-api';
import { AddEndpointForm } from './add-endpoint-form';
import { DeliveriesSection } from './deliveries-section';
import { EndpointsSection } from './endpoints-section';

const NOTICE_ID = 'webhooks-notice';

/** The events sent to the lender's systems: their endpoints, and each delivery with its answer. */
export function WebhooksScreen() {
  const { t } = useLingui();
  const api = useConsoleApi();
  const [refresh, setRefresh] = useState(0);
  const [notice, setNotice] = useState<Notice | null>(null);
  const { state, retry } = useConsoleLoad(
    (signal) => api.call(webhookEndpoints.endpoints, { signal }),
    [refresh],
  );
  const done = useCallback((next: Notice) => {
    setNotice(next);
    setRefresh((count) => count + 1);
  }, []);
  const endpoints = state.kind === 'loaded' ? state.data.endpoints : [];
  return (
    <ConsolePage
      title={t`Webhooks`}
      intro={<Trans>The events the portal sends to the lender’s systems, and how each delivery went.</Trans>}
      testId="console-webhooks"
    >
      <ActionNotice id={NOTICE_ID} notice={notice} onDismiss={() => setNotice(null)} />
      <EndpointsSection state={state} retry={retry} noticeId={NOTICE_ID} onDone={done} />
      <AddEndpointForm onAdded={() => setRefresh((count) => count + 1)} />
      <DeliveriesSection endpoints={endpoints} refresh={refresh} noticeId={NOTICE_ID} onDone={done} />
    </ConsolePage>
  );
}
