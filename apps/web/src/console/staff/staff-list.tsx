import {
  CONSOLE_ERROR_CODES,
  STAFF_ROLES,
  consoleEndpoints,
  type StaffRole,
  type StaffUser,
} from '@customer-core/contracts';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { formatInstant } from '../../loans/loan-format';
import { ActionDialog } from '../components/action-dialog';
import type { Notice } from '../components/action-notice';
import { ConsoleSection } from '../components/console-section';
import { ConsoleTable } from '../components/console-table';
import { LoadedView, type LoadState } from '../components/load-state';
import { SelectField } from '../components/select-field';
import { useConsoleApi } from '../session/console-api';
import { useStaff } from '../session/console-session-context';
import { ROLE_LABELS } from '../shell/console-areas';

export const WITH_PROVIDER = msg`Staff users are managed in the lender’s Okta org, not here: add them, and change or take away their roles, there.`;
const NO_SUCH_USER = msg`This staff user no longer exists.`;

interface StaffListProps {
  state: LoadState<{ staff: StaffUser[] } | 'with-provider'>;
  retry(): void;
  noticeId: string;
  onDone(notice: Notice): void;
}

type Change = { user: StaffUser; kind: 'role' | 'remove' };

/** The staff users and their roles; an admin changes another's role, or takes it away. */
export function StaffList({ state, retry, noticeId, onDone }: StaffListProps) {
  const { t, i18n } = useLingui();
  const api = useConsoleApi();
  const me = useStaff();
  const [change, setChange] = useState<Change | null>(null);
  const [role, setRole] = useState<StaffRole>('support');
  const name = change ? `${change.user.firstName} ${change.user.lastName}` : '';
  const current = change ? i18n._(ROLE_LABELS[change.user.role]) : '';

  const settle = async (user: StaffUser, next: StaffRole | null, reason: string, said: string) => {
    const outcome = await api.call(
      consoleEndpoints.changeStaffUser,
      { params: { staffId: user.id }, body: { role: next }, reason },
      { fallback: NO_SUCH_USER },
    );
    if (!outcome.ok)
      return outcome.failure.code === CONSOLE_ERROR_CODES.staffWithProvider
        ? { ...outcome.failure, message: i18n._(WITH_PROVIDER) }
        : outcome.failure;
    onDone({ type: 'success', text: said });
    return null;
  };

  return (
    <ConsoleSection id="staff-users" title={t`Staff users`}>
      <LoadedView state={state} retry={retry}>
        {(loaded) =>
          loaded === 'with-provider' ? (
            <p className="console-panel console-panel--info" data-testid="staff-with-provider">
              {i18n._(WITH_PROVIDER)}
            </p>
          ) : (
            <ConsoleTable
              caption={t`Staff users`}
              testId="staff-table"
              head={
                <>
                  <th scope="col">{t`Name`}</th>
                  <th scope="col">{t`Email address`}</th>
                  <th scope="col">{t`Role`}</th>
                  <th scope="col">{t`Added`}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t`Actions`}</span>
                  </th>
                </>
              }
            >
              {loaded.staff.map((user) => {
                const self = user.email.toLowerCase() === me.email.toLowerCase();
                return (
                  <tr key={user.id}>
                    <th scope="row">
                      {user.firstName} {user.lastName}
                      {self && <span className="console-cell-note">{t`You`}</span>}
                    </th>
                    <td className="console-table__wrap">{user.email}</td>
                    <td>{i18n._(ROLE_LABELS[user.role])}</td>
                    <td>
                      <time dateTime={user.createdAt}>{formatInstant(user.createdAt)}</time>
                    </td>
                    <td className="console-table__action">
                      {self ? (
                        <span className="console-muted">{t`Another admin changes your role.`}</span>
                      ) : (
                        <div className="console-row-actions">
                          <button
                            type="button"
                            className="button button--secondary console-button--small"
                            onClick={() => {
                              setRole(user.role === 'admin' ? 'support' : 'admin');
                              setChange({ user, kind: 'role' });
                            }}
                            data-testid="staff-change-role"
                          >
                            <Trans>Change role</Trans>
                            <span className="visually-hidden">
                              {' '}
                              {user.firstName} {user.lastName}
                            </span>
                          </button>
                          <button
                            type="button"
                            className="button console-button--danger-outline console-button--small"
                            onClick={() => setChange({ user, kind: 'remove' })}
                            data-testid="staff-remove-role"
                          >
                            <Trans>Remove role</Trans>
                            <span className="visually-hidden">
                              {' '}
                              {user.firstName} {user.lastName}
                            </span>
                          </button>
                        </div>
                      )}
                    </td>
                  </tr>
                );
              })}
            </ConsoleTable>
          )
        }
      </LoadedView>

      {change?.kind === 'role' && (
        <ActionDialog
          title={t`Change the role`}
          description={
            <p>
              <Trans>
                The role of <strong>{name}</strong> is {current} now. Their console sessions end when it
                changes: they sign in again with the new one.
              </Trans>
            </p>
          }
          confirmLabel={t`Change role`}
          busyText={t`Changing the role`}
          onConfirm={(reason) => {
            const next = i18n._(ROLE_LABELS[role]);
            return settle(change.user, role, reason, t`The role of ${name} is ${next} now.`);
          }}
          onClose={() => setChange(null)}
          focusOnDone={noticeId}
          testId="staff-role-dialog"
        >
          <SelectField
            id="staff-new-role"
            label={t`New role`}
            select={{ value: role, onChange: (event) => setRole(event.target.value as StaffRole) }}
          >
            {STAFF_ROLES.map((value) => (
              <option key={value} value={value}>
                {i18n._(ROLE_LABELS[value])}
              </option>
            ))}
          </SelectField>
        </ActionDialog>
      )}
      {change?.kind === 'remove' && (
        <ActionDialog
          title={t`Remove the role`}
          description={
            <p>
              <Trans>
                <strong>{name}</strong> will no longer be staff: their console sessions end at once, and they
                can’t sign in to the console until given a role again.
              </Trans>
            </p>
          }
          confirmLabel={t`Remove role`}
          busyText={t`Removing the role`}
          danger
          onConfirm={(reason) => settle(change.user, null, reason, t`${name} is no longer staff.`)}
          onClose={() => setChange(null)}
          focusOnDone={noticeId}
          testId="staff-remove-dialog"
        />
      )}
    </ConsoleSection>
  );
}
