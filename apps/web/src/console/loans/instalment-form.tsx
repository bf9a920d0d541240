import {
  LoanReferenceSchema,
  RecordInstalmentRequestSchema,
  operatorEndpoints,
  type InstalmentState,
  type LoanSchedule,
  type RecordInstalmentRequest,
} from '@customer-core/contracts';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Banner } from '../../components/banner';
import { BusyButton } from '../../components/busy-button';
import { TextField } from '../../components/text-field';
import { formatCalendarDate, formatMoney } from '../../loans/loan-format';
import { ConsoleSection } from '../components/console-section';
import { ConsoleTable } from '../components/console-table';
import { ReasonField, reasonProblem } from '../components/reason-field';
import { checkResolver, type Checked } from '../lib/check-resolver';
import { dollarsToCents } from '../lib/money';
import { useConsoleApi } from '../session/console-api';
import { AMOUNT_PROBLEM, DATE_PROBLEM, DateField, MoneyField, REFERENCE_PROBLEM } from './loan-fields';

interface InstalmentForm {
  reference: string;
  dueOn: string;
  amount: string;
  paidOn: string;
  reason: string;
}

type Instalment = { reference: string; instalment: RecordInstalmentRequest };

const NO_SUCH_LOAN = msg`No loan has this reference.`;
const MORE_THAN_ZERO = msg`The amount must be more than zero.`;
const STATE_LABELS: Record<InstalmentState, MessageDescriptor> = {
  paid: msg`Paid`,
  past_due: msg`Past due`,
  upcoming: msg`Upcoming`,
};

/** Records an instalment of a loan's payment schedule (one per due day: a new one, or a change to it). */
export function InstalmentForm() {
  const { t, i18n } = useLingui();
  const api = useConsoleApi();
  const [schedule, setSchedule] = useState<LoanSchedule | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const check = (values: InstalmentForm): Checked<InstalmentForm, Instalment> => {
    const errors: Partial<Record<keyof InstalmentForm, { type: string; message: string }>> = {};
    const reference = values.reference.trim().toUpperCase();
    if (!LoanReferenceSchema.safeParse(reference).success)
      errors.reference = { type: 'validate', message: i18n._(REFERENCE_PROBLEM) };
    if (!values.dueOn) errors.dueOn = { type: 'validate', message: i18n._(DATE_PROBLEM) };
    const amountCents = dollarsToCents(values.amount);
    if (amountCents === null) errors.amount = { type: 'validate', message: i18n._(AMOUNT_PROBLEM) };
    else if (amountCents === 0) errors.amount = { type: 'validate', message: i18n._(MORE_THAN_ZERO) };
    const parsed = RecordInstalmentRequestSchema.safeParse({
      dueOn: values.dueOn,
      amountCents: amountCents ?? 0,
      paidOn: values.paidOn || null,
    });
    if (!parsed.success)
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] === 'paidOn' ? 'paidOn' : issue.path[0] === 'dueOn' ? 'dueOn' : null;
        if (field) errors[field] ??= { type: 'validate', message: i18n._(DATE_PROBLEM) };
      }
    const reasonError = reasonProblem(values.reason, false, i18n);
    if (reasonError) errors.reason = { type: 'validate', message: reasonError };
    if (Object.keys(errors).length > 0 || !parsed.success) return { errors };
    return { request: { reference, instalment: parsed.data } };
  };

  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<InstalmentForm>({
    resolver: checkResolver(check),
    defaultValues: { reference: '', dueOn: '', amount: '', paidOn: '', reason: '' },
  });

  const record = async (values: InstalmentForm) => {
    setFailure(null);
    setSchedule(null);
    const checked = check(values);
    if (!('request' in checked)) return;
    const { reference, instalment } = checked.request;
    const outcome = await api.call(
      operatorEndpoints.loanInstalments,
      { params: { reference }, body: instalment, reason: values.reason },
      { fallback: NO_SUCH_LOAN },
    );
    if (!outcome.ok) return setFailure(outcome.failure.quiet ? null : outcome.failure.message);
    setSchedule(outcome.data);
    reset({ ...values, dueOn: '', amount: '', paidOn: '', reason: '' });
  };

  const recordedFor = schedule?.reference;
  return (
    <ConsoleSection
      id="record-instalment"
      title={t`Record an instalment`}
      intro={t`One per due day: recording a day that has one already changes it. Leave “Paid on” empty while it’s unpaid.`}
    >
      <form className="console-form" onSubmit={handleSubmit(record)} noValidate>
        {schedule && (
          <Banner type="success" onDismiss={() => setSchedule(null)} testId="instalment-recorded">
            <Trans>Instalment recorded for {recordedFor}.</Trans>
          </Banner>
        )}
        {schedule && (
          <ConsoleTable
            caption={t`Payment schedule of ${recordedFor}`}
            showCaption
            testId="schedule-table"
            head={
              <>
                <th scope="col">{t`Due on`}</th>
                <th scope="col" className="console-table__number">
                  {t`Amount`}
                </th>
                <th scope="col">{t`Paid on`}</th>
                <th scope="col">{t`State`}</th>
              </>
            }
          >
            {schedule.instalments.map((instalment) => (
              <tr key={instalment.dueOn}>
                <th scope="row">{formatCalendarDate(instalment.dueOn)}</th>
                <td className="console-table__number">{formatMoney(instalment.amountCents)}</td>
                <td>{instalment.paidOn ? formatCalendarDate(instalment.paidOn) : '—'}</td>
                <td>{i18n._(STATE_LABELS[instalment.state])}</td>
              </tr>
            ))}
          </ConsoleTable>
        )}
        {failure && (
          <Banner type="error" onDismiss={() => setFailure(null)} testId="instalment-error">
            {failure}
          </Banner>
        )}
        <TextField
          id="instalment-reference"
          label={t`Loan reference`}
          input={{
            ...register('reference'),
            autoComplete: 'off',
            autoCapitalize: 'characters',
            spellCheck: false,
          }}
          error={errors.reference?.message}
        />
        <div className="console-form__row">
          <DateField
            id="instalment-due"
            label={t`Due on`}
            input={register('dueOn')}
            error={errors.dueOn?.message}
          />
          <MoneyField
            id="instalment-amount"
            label={t`Amount`}
            input={register('amount')}
            error={errors.amount?.message}
          />
        </div>
        <DateField
          id="instalment-paid"
          label={t`Paid on (optional)`}
          input={register('paidOn')}
          error={errors.paidOn?.message}
        />
        <ReasonField
          id="instalment-reason"
          required={false}
          input={register('reason')}
          error={errors.reason?.message}
        />
        <div className="console-actions">
          <BusyButton
            busy={isSubmitting}
            busyText={t`Recording the instalment`}
            className="button button--primary"
          >
            <Trans>Record instalment</Trans>
          </BusyButton>
        </div>
      </form>
    </ConsoleSection>
  );
}
