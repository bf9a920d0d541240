import type { Locale } from '@customer-core/contracts';
import type { SecondFactorEvidence, SignInMethod } from './sign-in-evidence.js';

// The portal's own words on a document's PDF, in the signer's language: the line above the title, the
// file's properties and the signature certificate. The document's text stays as the lender wrote it.
// One object per language, each `satisfies CertificateWords`: a missing word fails the build.

export interface CertificateWords {
  /** "Main Street Funding · Term loan · loan LN-1" */
  loanLine(lender: string, product: string, reference: string): string;
  /** The PDF's title property: "Loan agreement — loan LN-1", "(signed)" after it for a signed one. */
  fileTitle(title: string, reference: string, signed: boolean): string;
  /** The PDF's subject property. */
  signedBy(who: string): string;
  noEmailAddress: string;
  reviewedOn(at: string): string;
  heading: string;
  notRecorded: string;
  labels: {
    document: string;
    signature: string;
    accountName: string;
    accountEmail: string;
    consent: string;
    method: string;
    secondFactor: string;
    signedInAt: string;
    signedAt: string;
    clientAddress: string;
    fingerprint: string;
  };
  documentOfLoan(title: string, reference: string): string;
  consentGiven(at: string, version: string): string;
  /** "Password (amr: pwd, otp)"; `amr` empty: none. */
  method(method: string, amr: string): string;
  methods: Record<SignInMethod, string>;
  secondFactors: Record<SecondFactorEvidence, string>;
  fingerprintNote: string;
}

const enUS = {
  loanLine: (lender, product, reference) => `${lender} · ${product} · loan ${reference}`,
  fileTitle: (title, reference, signed) => `${title} — loan ${reference}${signed ? ' (signed)' : ''}`,
  signedBy: (who) => `Signed by ${who}`,
  noEmailAddress: 'no email address',
  reviewedOn: (at) => `Reviewed on ${at}`,
  heading: 'Signature certificate',
  notRecorded: 'Not recorded',
  labels: {
    document: 'Document',
    signature: 'Signature (name as typed)',
    accountName: 'Signer’s account name',
    accountEmail: 'Signer’s account email address',
    consent: 'Consent to sign electronically',
    method: 'Sign-in method',
    secondFactor: 'Second factor',
    signedInAt: 'Signed in at',
    signedAt: 'Signed at',
    clientAddress: 'Client address',
    fingerprint: 'Document fingerprint (SHA-256)',
  },
  documentOfLoan: (title, reference) => `${title}, loan ${reference}`,
  consentGiven: (at, version) => `Given ${at} (text version ${version})`,
  method: (method, amr) => `${method} (amr: ${amr || 'none'})`,
  methods: { password: 'Password', email_link: 'Email link', passkey: 'Passkey', other: 'Other' },
  secondFactors: {
    authenticator_app_code: 'Authenticator app code',
    passkey_or_security_key: 'Passkey or security key',
    passkey_with_pin_or_biometrics: 'Passkey with its PIN or biometrics',
    yes: 'Yes',
    none: 'None',
  },
  fingerprintNote:
    'The fingerprint is the SHA-256 hash of the document’s text, exactly as signed, encoded as UTF-8. ' +
    'Any change to the text gives a different fingerprint.',
} satisfies CertificateWords;

const esUS = {
  loanLine: (lender, product, reference) => `${lender} · ${product} · préstamo ${reference}`,
  fileTitle: (title, reference, signed) => `${title} — préstamo ${reference}${signed ? ' (firmado)' : ''}`,
  signedBy: (who) => `Firmado por ${who}`,
  noEmailAddress: 'sin correo electrónico',
  reviewedOn: (at) => `Revisado el ${at}`,
  heading: 'Certificado de firma',
  notRecorded: 'No registrado',
  labels: {
    document: 'Documento',
    signature: 'Firma (nombre tal como se escribió)',
    accountName: 'Nombre de la cuenta del firmante',
    accountEmail: 'Correo electrónico de la cuenta del firmante',
    consent: 'Consentimiento para firmar electrónicamente',
    method: 'Forma de inicio de sesión',
    secondFactor: 'Verificación en dos pasos',
    signedInAt: 'Sesión iniciada el',
    signedAt: 'Firmado el',
    clientAddress: 'Dirección del cliente',
    fingerprint: 'Huella digital del documento (SHA-256)',
  },
  documentOfLoan: (title, reference) => `${title}, préstamo ${reference}`,
  consentGiven: (at, version) => `Otorgado el ${at} (versión del texto ${version})`,
  method: (method, amr) => `${method} (amr: ${amr || 'ninguno'})`,
  methods: {
    password: 'Contraseña',
    email_link: 'Enlace por correo electrónico',
    passkey: 'Llave de acceso',
    other: 'Otra',
  },
  secondFactors: {
    authenticator_app_code: 'Código de la aplicación de autenticación',
    passkey_or_security_key: 'Llave de acceso o llave de seguridad',
    passkey_with_pin_or_biometrics: 'Llave de acceso con su PIN o datos biométricos',
    yes: 'Sí',
    none: 'Ninguna',
  },
  fingerprintNote:
    'La huella digital es el hash SHA-256 del texto del documento, exactamente como se firmó, codificado en UTF-8. ' +
    'Cualquier cambio en el texto da una huella digital distinta.',
} satisfies CertificateWords;

const CERTIFICATE_WORDS: Record<Locale, CertificateWords> = { 'en-US': enUS, 'es-US': esUS };

export const certificateWordsOf = (locale: Locale): CertificateWords => CERTIFICATE_WORDS[locale];
