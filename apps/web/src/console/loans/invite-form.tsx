import {
  InviteBorrowerRequestSchema,
  operatorEndpoints,
  type InviteBorrowerRequest,
  consoleRoutes,
} from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { Banner } from '../../components/banner';
import { BusyButton } from '../../components/busy-button';
import { TextField } from '../../components/text-field';
import { formatInstant } from '../../loans/loan-format';
import { ConsoleSection } from '../components/console-section';
import { ReasonField, reasonProblem } from '../components/reason-field';
import { SelectField } from '../components/select-field';
import { checkResolver, type Checked } from '../lib/check-resolver';
import { fieldErrorsOf } from '../lib/form-issues';
import { useConsoleApi } from '../session/console-api';

interface InviteForm {
  email: string;
  firstName: string;
  lastName: string;
  locale: 'en-US' | 'es-US';
  reason: string;
}

type Sent = { email: string; borrowerId: string; expiresAt: string };

/** Invites a borrower to register: the invitation's link is emailed, in the language chosen. */
export function InviteBorrowerForm() {
  const { t, i18n } = useLingui();
  const api = useConsoleApi();
  const [sent, setSent] = useState<Sent | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const check = (values: InviteForm): Checked<InviteForm, InviteBorrowerRequest> => {
    const { reason, ...fields } = values;
    const parsed = InviteBorrowerRequestSchema.safeParse(fields);
    const errors = parsed.success
      ? {}
      : fieldErrorsOf<InviteForm>(parsed.error.issues, ([field]) =>
          field === 'email' || field === 'firstName' || field === 'lastName' ? field : null,
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
  } = useForm<InviteForm>({
    resolver: checkResolver(check),
    defaultValues: { email: '', firstName: '', lastName: '', locale: 'en-US', reason: '' },
  });

  const invite = async (values: InviteForm) => {
    setFailure(null);
    setSent(null);
    const checked = check(values);
    if (!('request' in checked)) return;
    const outcome = await api.call(operatorEndpoints.invitations, {
      body: checked.request,
      reason: values.reason,
    });
    if (!outcome.ok) return setFailure(outcome.failure.quiet ? null : outcome.failure.message);
    setSent({ email: checked.request.email, ...outcome.data });
    reset();
  };

  const sentTo = sent?.email;
  const until = sent ? formatInstant(sent.expiresAt) : '';
  return (
    <ConsoleSection
      id="invite-borrower"
      title={t`Invite a borrower`}
      intro={t`We’ll email them a link to register. The link works for a few days.`}
    >
      <form className="console-form" onSubmit={handleSubmit(invite)} noValidate>
        {sent && (
          <Banner type="success" onDismiss={() => setSent(null)} testId="invite-sent">
            <Trans>
              Invitation sent to {sentTo}. The link works until {until}.
            </Trans>{' '}
            <Link to={consoleRoutes.borrower.href({ borrowerId: sent.borrowerId })}>
              <Trans>Open the borrower</Trans>
            </Link>
          </Banner>
        )}
        {failure && (
          <Banner type="error" onDismiss={() => setFailure(null)} testId="invite-error">
            {failure}
          </Banner>
        )}
        <TextField
          id="invite-email"
          label={t`Email address`}
          input={{ ...register('email'), type: 'email', autoComplete: 'off', spellCheck: false }}
          error={errors.email?.message}
        />
        <div className="console-form__row">
          <TextField
            id="invite-first-name"
            label={t`First name`}
            input={{ ...register('firstName'), autoComplete: 'off' }}
            error={errors.firstName?.message}
          />
          <TextField
            id="invite-last-name"
            label={t`Last name`}
            input={{ ...register('lastName'), autoComplete: 'off' }}
            error={errors.lastName?.message}
          />
        </div>
        <SelectField id="invite-locale" label={t`Language of the invitation`} select={register('locale')}>
          <option value="en-US">{t`English`}</option>
          <option value="es-US">{t`Spanish`}</option>
        </SelectField>
        <ReasonField
          id="invite-reason"
          required={false}
          input={register('reason')}
          error={errors.reason?.message}
        />
        <div className="console-actions">
          <BusyButton
            busy={isSubmitting}
            busyText={t`Sending the invitation`}
            className="button button--primary"
          >
            <Trans>Send invitation</Trans>
          </BusyButton>
        </div>
      </form>
    </ConsoleSection>
  );
}
