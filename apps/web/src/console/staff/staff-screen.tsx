import {
  CONSOLE_ERROR_CODES,
  consoleEndpoints,
  operatorEndpoints,
  type StaffUser,
} from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { useCallback, useState } from 'react';
import { ActionNotice, type Notice } from '../components/action-notice';
import { ConsolePage } from '../components/console-page';
import { useConsoleLoad } from '../components/load-state';
import { useConsoleApi } from '../session/console-api';
import { useMay } from '../shell/use-may';
import { AddStaffForm } from './add-staff-form';
import { SigningKeySection } from './signing-key-section';
import { StaffList } from './staff-list';

const NOTICE_ID = 'staff-notice';

/** The staff users, or word that the lender's hosted org has them. */
type StaffUsers = { staff: StaffUser[] } | 'with-provider';

/** Who works in the console and as what, and the key that signs borrowers' tokens. */
export function StaffScreen() {
  const { t } = useLingui();
  const api = useConsoleApi();
  const may = useMay();
  const [refresh, setRefresh] = useState(0);
  const [notice, setNotice] = useState<Notice | null>(null);
  const { state, retry } = useConsoleLoad<StaffUsers>(
    async (signal) => {
      const outcome = await api.call(consoleEndpoints.staffUsers, { signal });
      // Staff in the lender's hosted org: said as such, not as a failure.
      if (!outcome.ok && outcome.failure.code === CONSOLE_ERROR_CODES.staffWithProvider)
        return { ok: true as const, status: 409, data: 'with-provider' as const };
      return outcome;
    },
    [refresh],
  );
  const done = useCallback((next: Notice) => {
    setNotice(next);
    setRefresh((count) => count + 1);
  }, []);
  const withProvider = state.kind === 'loaded' && state.data === 'with-provider';
  return (
    <ConsolePage
      title={t`Staff`}
      intro={<Trans>Who may use the staff console, and as what.</Trans>}
      testId="console-staff"
    >
      <ActionNotice id={NOTICE_ID} notice={notice} onDismiss={() => setNotice(null)} />
      <StaffList state={state} retry={retry} noticeId={NOTICE_ID} onDone={done} />
      {!withProvider && may(consoleEndpoints.addStaffUser) && (
        <AddStaffForm
          onAdded={(text) => {
            done({ type: 'success', text });
            // Once it shows: the form it came from is emptied, and the notice says what happened.
            requestAnimationFrame(() => document.getElementById(NOTICE_ID)?.focus());
          }}
        />
      )}
      {may(operatorEndpoints.signingKeyRotations) && <SigningKeySection noticeId={NOTICE_ID} onDone={done} />}
    </ConsolePage>
  );
}
