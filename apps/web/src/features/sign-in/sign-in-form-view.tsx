import { routes } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { BusyButton } from '../../components/busy-button';
import type { ComponentPropsWithRef, FormEventHandler, ReactNode } from 'react';
import { Link } from 'react-router';
import { EmailField } from '../../components/email-field';
import { FormField, fieldErrorId } from '../../components/form-field';
import { PasswordInput } from '../../components/password-input';

export const EMAIL_FIELD_ID = 'sign-in-email';
export const PASSWORD_FIELD_ID = 'sign-in-password';

type InputProps = Omit<ComponentPropsWithRef<'input'>, 'id' | 'type'>;

interface SignInFormViewProps {
  onSubmit: FormEventHandler<HTMLFormElement>;
  emailInput: InputProps;
  passwordInput: InputProps;
  emailError?: string | undefined;
  passwordError?: string | undefined;
  pending?: boolean;
  banner?: ReactNode;
  /** Under the banner, in a live region: what the borrower can do instead (password sign-in paused). */
  notice?: ReactNode;
  /** False while the interactive form loads: the fields are read-only and the buttons wait. */
  ready?: boolean;
  /** Another way in under the main button (a passkey), where there is one. */
  alternative?: ReactNode;
}

/** The sign-in form's markup, shared by the first paint and the interactive form. */
export function SignInFormView({
  onSubmit,
  emailInput,
  passwordInput,
  emailError,
  passwordError,
  pending = false,
  banner,
  notice,
  ready = true,
  alternative,
}: SignInFormViewProps) {
  const { t } = useLingui();
  return (
    <form
      className="sign-in-form"
      onSubmit={onSubmit}
      noValidate
      aria-labelledby="sign-in-form-heading"
      aria-busy={ready ? undefined : true}
      data-ready={ready}
    >
      <h2 id="sign-in-form-heading" className="visually-hidden">
        <Trans>Sign in to your account</Trans>
      </h2>
      {banner}
      <div className="sign-in-form__notice" role="status">
        {notice}
      </div>
      <EmailField id={EMAIL_FIELD_ID} input={{ ...emailInput, readOnly: !ready }} error={emailError} />
      <FormField
        id={PASSWORD_FIELD_ID}
        label={t`Password`}
        error={passwordError}
        aside={
          <Link className="sign-in-form__forgot" to={routes.forgotPassword.path}>
            <Trans>Forgot Password?</Trans>
          </Link>
        }
      >
        <PasswordInput
          {...passwordInput}
          readOnly={!ready}
          id={PASSWORD_FIELD_ID}
          autoComplete="current-password"
          aria-invalid={passwordError ? true : undefined}
          aria-describedby={passwordError ? fieldErrorId(PASSWORD_FIELD_ID) : undefined}
        />
      </FormField>
      <BusyButton busy={pending} busyText={t`Signing in`} disabled={!ready}>
        <Trans>LOGIN</Trans>
      </BusyButton>
      {alternative}
    </form>
  );
}
