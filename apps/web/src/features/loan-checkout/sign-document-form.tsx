import {
  SignDocumentRequestSchema,
  type LoanDocument,
  type SignDocumentRequest,
} from '@customer-core/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { BusyButton } from '../../components/busy-button';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { FormField, fieldErrorId } from '../../components/form-field';

// The API's own rules and messages; the box starts unticked (false), which only `true` passes.
const SignFormSchema = z.object({
  signatureName: SignDocumentRequestSchema.shape.signatureName,
  agreed: z.boolean().pipe(SignDocumentRequestSchema.shape.agreed),
});
const resolver = zodResolver(SignFormSchema);
type SignForm = z.input<typeof SignFormSchema>;

interface SignDocumentFormProps {
  document: Pick<LoanDocument, 'id' | 'title'>;
  /** The name field's id (the page moves the focus there once the document is reviewed). */
  nameId: string;
  onSign: (signature: SignDocumentRequest) => Promise<void>;
}

/** The signature: the borrower's full name, typed, and "I have read and agree". */
export function SignDocumentForm({ document, nameId, onSign }: SignDocumentFormProps) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignForm, unknown, SignDocumentRequest>({
    resolver,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: { signatureName: '', agreed: false },
  });
  const agreeId = `document-${document.id}-agree`;
  const nameError = errors.signatureName?.message;
  const agreeError = errors.agreed?.message;

  return (
    <form
      className="sign-form"
      onSubmit={handleSubmit(onSign)}
      noValidate
      aria-labelledby={`${nameId}-legend`}
      data-testid="sign-form"
    >
      <p className="sign-form__title" id={`${nameId}-legend`}>
        Sign &ldquo;{document.title}&rdquo;
      </p>
      <FormField id={nameId} label="Your full name" error={nameError}>
        <input
          {...register('signatureName')}
          id={nameId}
          className="text-input"
          type="text"
          autoComplete="name"
          aria-invalid={nameError ? true : undefined}
          aria-describedby={[nameError && fieldErrorId(nameId), `${nameId}-hint`].filter(Boolean).join(' ')}
        />
        <p className="sign-form__hint" id={`${nameId}-hint`}>
          Typing your name here is your signature.
        </p>
      </FormField>
      <div className={`checkbox-field${agreeError ? ' checkbox-field--invalid' : ''}`}>
        <input
          {...register('agreed')}
          id={agreeId}
          type="checkbox"
          aria-invalid={agreeError ? true : undefined}
          aria-describedby={agreeError ? fieldErrorId(agreeId) : undefined}
        />
        <label htmlFor={agreeId}>I have read and agree to &ldquo;{document.title}&rdquo;</label>
      </div>
      {agreeError && (
        <p className="form-field__error" id={fieldErrorId(agreeId)} data-testid={fieldErrorId(agreeId)}>
          <svg viewBox="0 0 16 16" aria-hidden="true" focusable="false">
            <path
              fill="currentColor"
              d="M8 0a8 8 0 1 0 0 16A8 8 0 0 0 8 0Zm-.9 3.5h1.8l-.2 6H7.3l-.2-6ZM8 12.6a1.1 1.1 0 1 1 0-2.2 1.1 1.1 0 0 1 0 2.2Z"
            />
          </svg>
          {agreeError}
        </p>
      )}
      <BusyButton
        busy={isSubmitting}
        busyText="Signing the document"
        id={`${nameId}-sign`}
        className="button button--primary"
        aria-label={`Sign document: ${document.title}`}
      >
        Sign document
      </BusyButton>
    </form>
  );
}
