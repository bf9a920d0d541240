import {
  AddWebhookEndpointRequestSchema,
  WEBHOOK_EVENT_TYPES,
  webhookEndpoints,
  type WebhookEventType,
} from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState, type FormEvent, type RefObject } from 'react';
import { Banner } from '../../components/banner';
import { BusyButton } from '../../components/busy-button';
import { FieldError } from '../../components/form-field';
import { TextField } from '../../components/text-field';
import { ConsoleSection } from '../components/console-section';
import { ReasonField, reasonProblem } from '../components/reason-field';
import { useConsoleApi } from '../session/console-api';

type Errors = Partial<Record<'url' | 'description' | 'eventTypes' | 'reason', string>>;

/** A new endpoint: its URL and the events it takes; its signing secret is shown once, with a copy button. */
export function AddEndpointForm({ onAdded }: { onAdded(): void }) {
  const { t, i18n } = useLingui();
  const api = useConsoleApi();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [types, setTypes] = useState<Set<WebhookEventType>>(() => new Set(WEBHOOK_EVENT_TYPES));
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [created, setCreated] = useState<{ url: string; secret: string } | null>(null);
  const secretRef = useRef<HTMLHeadingElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = {
      url: url.trim(),
      eventTypes: WEBHOOK_EVENT_TYPES.filter((type) => types.has(type)),
      ...(description.trim() ? { description: description.trim() } : {}),
    };
    const parsed = AddWebhookEndpointRequestSchema.safeParse(body);
    const found: Errors = {};
    if (!parsed.success)
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0]) as keyof Errors;
        found[field] ??= issue.message;
      }
    const problem = reasonProblem(reason, false, i18n);
    if (problem) found.reason = problem;
    setErrors(found);
    const first = (['url', 'description', 'eventTypes', 'reason'] as const).find((field) => found[field]);
    if (first) return document.getElementById(`webhook-${first === 'eventTypes' ? 'types' : first}`)?.focus();
    setFailure(null);
    setPending(true);
    const outcome = await api.call(webhookEndpoints.addEndpoint, { body, reason });
    setPending(false);
    if (!outcome.ok) return setFailure(outcome.failure.quiet ? null : outcome.failure.message);
    setCreated({ url: outcome.data.url, secret: outcome.data.secret });
    setUrl('');
    setDescription('');
    setReason('');
    setTypes(new Set(WEBHOOK_EVENT_TYPES));
    onAdded();
    requestAnimationFrame(() => secretRef.current?.focus());
  };

  const toggle = (type: WebhookEventType, on: boolean) =>
    setTypes((current) => {
      const next = new Set(current);
      if (on) next.add(type);
      else next.delete(type);
      return next;
    });

  return (
    <ConsoleSection
      id="add-webhook-endpoint"
      title={t`Add an endpoint`}
      intro={t`The lender’s system that takes the events. Each delivery is signed with the endpoint’s secret.`}
    >
      {created && <SecretOnce created={created} headingRef={secretRef} onDone={() => setCreated(null)} />}
      <form className="console-form" onSubmit={(event) => void submit(event)} noValidate>
        {failure && (
          <Banner type="error" onDismiss={() => setFailure(null)} testId="add-endpoint-error">
            {failure}
          </Banner>
        )}
        <TextField
          id="webhook-url"
          label={t`URL`}
          hint={t`An https address, e.g. https://los.example.com/webhooks.`}
          input={{
            type: 'url',
            value: url,
            onChange: (event) => setUrl(event.target.value),
            autoComplete: 'off',
            spellCheck: false,
          }}
          error={errors.url}
        />
        <TextField
          id="webhook-description"
          label={t`Description (optional)`}
          input={{
            value: description,
            onChange: (event) => setDescription(event.target.value),
            autoComplete: 'off',
          }}
          error={errors.description}
        />
        <fieldset
          id="webhook-types"
          className="console-fieldset"
          tabIndex={-1}
          aria-describedby={errors.eventTypes ? 'webhook-types-error' : undefined}
        >
          <legend>{t`Events it takes`}</legend>
          <div className="console-checks">
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <label key={type} className="console-check">
                <input
                  type="checkbox"
                  checked={types.has(type)}
                  onChange={(event) => toggle(type, event.target.checked)}
                />
                <span className="console-code">{type}</span>
              </label>
            ))}
          </div>
          {errors.eventTypes && <FieldError id="webhook-types" message={errors.eventTypes} />}
        </fieldset>
        <ReasonField
          id="webhook-reason"
          required={false}
          input={{ value: reason, onChange: (event) => setReason(event.target.value) }}
          error={errors.reason}
        />
        <div className="console-actions">
          <BusyButton busy={pending} busyText={t`Adding the endpoint`} className="button button--primary">
            <Trans>Add endpoint</Trans>
          </BusyButton>
        </div>
      </form>
    </ConsoleSection>
  );
}

/** The new endpoint's signing secret: shown this once (it is kept sealed), with a way to copy it. */
function SecretOnce({
  created,
  headingRef,
  onDone,
}: {
  created: { url: string; secret: string };
  headingRef: RefObject<HTMLHeadingElement | null>;
  onDone(): void;
}) {
  const { t } = useLingui();
  const [copied, setCopied] = useState<boolean | null>(null);
  const url = created.url;
  return (
    <div className="console-secret" data-testid="webhook-secret">
      <h3 ref={headingRef} tabIndex={-1}>
        <Trans>Signing secret of {url}</Trans>
      </h3>
      <p>
        <Trans>Copy it now and give it to the system behind the endpoint: it won’t be shown again.</Trans>
      </p>
      <code className="console-secret__value">{created.secret}</code>
      <div className="console-actions">
        <button
          type="button"
          className="button button--primary console-button--small"
          onClick={() =>
            void navigator.clipboard.writeText(created.secret).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          <Trans>Copy secret</Trans>
        </button>
        <button type="button" className="button button--secondary console-button--small" onClick={onDone}>
          <Trans>I’ve kept it</Trans>
        </button>
      </div>
      <p role="status" className="console-secret__status">
        {copied === true
          ? t`Copied.`
          : copied === false
            ? t`Couldn’t copy: select the secret and copy it yourself.`
            : ''}
      </p>
    </div>
  );
}
