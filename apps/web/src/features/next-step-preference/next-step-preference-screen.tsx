import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { fieldErrorId } from '../../components/form-field';
import '../../components/form-field.css';
import { FormScreen } from '../../components/form-screen';
import {
  NEXT_STEPS,
  forgetNextStep,
  readNextStepPreference,
  rememberNextStep,
  type NextStep,
} from './next-step-storage';
import './next-step-preference.css';

const GROUP_ID = 'next-step';
const CHOOSE_ONE = msg`Choose how you would like to continue.`;

/**
 * The place a visitor chooses how to continue: an existing loan (sign in) or a new one (apply). The
 * choice can be remembered on this device; it is then chosen already, with a way to forget it.
 */
export function NextStepPreferenceScreen() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [remembered, setRemembered] = useState<NextStep | null>(readNextStepPreference);
  const [choice, setChoice] = useState<NextStep | null>(remembered);
  const [remember, setRemember] = useState(true);
  const [error, setError] = useState(false);
  const [announcement, setAnnouncement] = useState('');

  const onForget = () => {
    forgetNextStep();
    setRemembered(null);
    setChoice(null);
    setAnnouncement(t`Your choice is forgotten on this device.`);
    document.getElementById(`${GROUP_ID}-existing-loan`)?.focus();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!choice) {
      setError(true);
      document.getElementById(`${GROUP_ID}-existing-loan`)?.focus();
      return;
    }
    if (remember) rememberNextStep(choice);
    else forgetNextStep();
    void navigate(NEXT_STEPS[choice].path);
  };

  const rememberedTitle = remembered && t(NEXT_STEPS[remembered].title);

  return (
    <FormScreen
      title={t`How would you like to continue?`}
      intro={t`Choose what you came to do today.`}
      testId="next-step-preference"
    >
      {remembered && (
        <div className="next-step__remembered" data-testid="next-step-remembered">
          <p>
            <Trans>
              Remembered on this device: <strong>{rememberedTitle}</strong>.
            </Trans>
          </p>
          <button type="button" className="next-step__forget" onClick={onForget}>
            <Trans>Forget my choice</Trans>
          </button>
        </div>
      )}
      <form className="form-screen__form" onSubmit={onSubmit} noValidate>
        <fieldset
          className="next-step__options"
          aria-describedby={error ? fieldErrorId(GROUP_ID) : undefined}
        >
          <legend className="visually-hidden">
            <Trans>How would you like to continue?</Trans>
          </legend>
          {(Object.keys(NEXT_STEPS) as NextStep[]).map((step) => (
            <label key={step} className="next-step__option" data-remembered={step === remembered}>
              <input
                type="radio"
                id={`${GROUP_ID}-${step}`}
                name={GROUP_ID}
                value={step}
                checked={choice === step}
                onChange={() => {
                  setChoice(step);
                  setError(false);
                }}
                aria-describedby={`${GROUP_ID}-${step}-description`}
              />
              <span className="next-step__option-text">
                <span className="next-step__option-title">
                  {t(NEXT_STEPS[step].title)}
                  {step === remembered && (
                    <span className="next-step__badge">
                      <Trans>Your choice</Trans>
                    </span>
                  )}
                </span>
                <span className="next-step__option-description" id={`${GROUP_ID}-${step}-description`}>
                  {t(NEXT_STEPS[step].description)}
                </span>
              </span>
            </label>
          ))}
        </fieldset>
        {error && (
          <p className="form-field__error" id={fieldErrorId(GROUP_ID)} role="alert">
            {t(CHOOSE_ONE)}
          </p>
        )}
        <label className="next-step__remember">
          <input type="checkbox" checked={remember} onChange={(event) => setRemember(event.target.checked)} />
          <Trans>Remember my choice on this device</Trans>
        </label>
        <button type="submit" className="button button--primary button--block">
          <Trans>Continue</Trans>
        </button>
      </form>
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
    </FormScreen>
  );
}
