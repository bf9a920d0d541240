import {
  AddStaffUserRequestSchema,
  CONSOLE_ERROR_CODES,
  STAFF_ROLES,
  consoleEndpoints,
  type AddStaffUserRequest,
  type StaffRole,
} from '@customer-core/contracts';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Banner } from '../../components/banner';
import { BusyButton } from '../../components/busy-button';
import { TextField } from '../../components/text-field';
import { ConsoleSection } from '../components/console-section';
import { ReasonField, reasonProblem } from '../components/reason-field';
import { SelectField } from '../components/select-field';
import { checkResolver, type Checked } from '../lib/check-resolver';
import { fieldErrorsOf } from '../lib/form-issues';
import { useConsoleApi } from '../session/console-api';
import { ROLE_LABELS } from '../shell/console-areas';
import { WITH_PROVIDER } from './staff-list';

interface AddStaffForm {
  email: string;
  firstName: string;
  lastName: string;
  role: StaffRole;
  reason: string;
}

const ROLE_HINT = msg`Support agents look after borrowers; admins may also manage loans, the audit trail, webhooks and staff.`;

/** A new staff user: emailed a link to set their password; they set up a second factor at their first sign-in. */
export function AddStaffForm({ onAdded }: { onAdded(text: string): void }) {
  const { t, i18n } = useLingui();
  const api = useConsoleApi();
  const [failure, setFailure] = useState<string | null>(null);

  const check = (values: AddStaffForm): Checked<AddStaffForm, AddStaffUserRequest> => {
    const { reason, ...fields } = values;
    const parsed = AddStaffUserRequestSchema.safeParse(fields);
    const errors = parsed.success
      ? {}
      : fieldErrorsOf<AddStaffForm>(parsed.error.issues, ([field]) =>
          field === 'email' || field === 'firstName' || field === 'lastName' || field === 'role'
            ? field
            : null,
        );
    const problem = reasonProblem(reason, false, i18n);
    if (problem) Object.assign(errors, { reason: { type: 'validate', message: problem } });
    return parsed.success && !problem ? { request: parsed.data } : { errors };
  };

  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<AddStaffForm>({
    resolver: checkResolver(check),
    defaultValues: { email: '', firstName: '', lastName: '', role: 'support', reason: '' },
  });

  const add = async (values: AddStaffForm) => {
    setFailure(null);
    const checked = check(values);
    if (!('request' in checked)) return;
    const outcome = await api.call(consoleEndpoints.addStaffUser, {
      body: checked.request,
      reason: values.reason,
    });
    if (!outcome.ok) {
      if (outcome.failure.quiet) return;
      return setFailure(
        outcome.failure.code === CONSOLE_ERROR_CODES.staffWithProvider
          ? i18n._(WITH_PROVIDER)
          : outcome.failure.message,
      );
    }
    const { email, firstName, lastName } = outcome.data;
    const role = i18n._(ROLE_LABELS[outcome.data.role]);
    reset();
    onAdded(
      t`${firstName} ${lastName} is added, with the role ${role}. We’ve emailed ${email} a link to set a password; they’ll set up a second factor at their first sign-in.`,
    );
  };

  return (
    <ConsoleSection id="add-staff" title={t`Add a staff user`}>
      <form className="console-form" onSubmit={handleSubmit(add)} noValidate>
        {failure && (
          <Banner type="error" onDismiss={() => setFailure(null)} testId="add-staff-error">
            {failure}
          </Banner>
        )}
        <TextField
          id="staff-email"
          label={t`Email address`}
          input={{ ...register('email'), type: 'email', autoComplete: 'off', spellCheck: false }}
          error={errors.email?.message}
        />
        <div className="console-form__row">
          <TextField
            id="staff-first-name"
            label={t`First name`}
            input={{ ...register('firstName'), autoComplete: 'off' }}
            error={errors.firstName?.message}
          />
          <TextField
            id="staff-last-name"
            label={t`Last name`}
            input={{ ...register('lastName'), autoComplete: 'off' }}
            error={errors.lastName?.message}
          />
        </div>
        <SelectField id="staff-role" label={t`Role`} hint={i18n._(ROLE_HINT)} select={register('role')}>
          {STAFF_ROLES.map((value) => (
            <option key={value} value={value}>
              {i18n._(ROLE_LABELS[value])}
            </option>
          ))}
        </SelectField>
        <ReasonField
          id="staff-reason"
          required={false}
          input={register('reason')}
          error={errors.reason?.message}
        />
        <div className="console-actions">
          <BusyButton
            busy={isSubmitting}
            busyText={t`Adding the staff user`}
            className="button button--primary"
          >
            <Trans>Add staff user</Trans>
          </BusyButton>
        </div>
      </form>
    </ConsoleSection>
  );
}
