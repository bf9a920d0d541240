import { passkeySignInPaths, selectIdentityProvider, UNKNOWN_PASSKEY_CAUSE } from '@customer-core/contracts';
import { getPortalConfig } from '../../config/portal-config';
import { finishSignIn, renewSignIn, type SignedInTransaction } from './sign-in';

// Passkey sign-in without a password, at the bundled identity provider: its options, the browser's
// assertion (through @simplewebauthn/browser, which turns WebAuthn's JSON into buffers and back),
// then the same steps 2 to 5 as a SUCCESS transaction. Loaded only when the borrower reaches for a
// passkey, never with the sign-in form.

export type PasskeyOutcome =
  /** The borrower closed the browser's prompt, or another sign-in took over: nothing to say. */
  | 'cancelled'
  /** The passkey is not one of this portal's accounts' (removed, or another site's). */
  | 'unknown'
  /**
   * No options from the identity provider (offline, busy, rate limited), or a browser that cannot
   * offer passkeys among the e-mail field's suggestions: no prompt was shown.
   */
  | 'unavailable'
  | 'failed';

function identityProviderOrigin(): string {
  const config = getPortalConfig();
  if (!config) throw new Error('no portal configuration');
  return new URL(selectIdentityProvider(config, window.location.origin).issuer).origin;
}

async function postJson(url: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    credentials: 'omit',
  });
}

/** A DOMException's or the library's error's name and code, whatever was thrown. */
const nameAndCode = (error: unknown) => error as { name?: unknown; code?: unknown } | null;

function isCancel(error: unknown): boolean {
  const { name, code } = nameAndCode(error) ?? {};
  return name === 'NotAllowedError' || name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED';
}

type PasskeyAnswer = {
  status: 'SUCCESS';
  sessionToken: string | undefined;
  user: SignedInTransaction['user'];
};

/** The browser's prompt and the identity provider's verdict: a SUCCESS transaction, or why not. */
async function passkeyAssertion(autofill: boolean): Promise<PasskeyOutcome | PasskeyAnswer> {
  const origin = identityProviderOrigin();
  const [{ startAuthentication }, optionsResponse] = await Promise.all([
    import('@simplewebauthn/browser'),
    postJson(`${origin}${passkeySignInPaths.options}`, {}).catch(() => undefined),
  ]);
  if (!optionsResponse?.ok) return 'unavailable';
  let assertion: unknown;
  try {
    assertion = await startAuthentication({
      optionsJSON: (await optionsResponse.json()) as Parameters<typeof startAuthentication>[0]['optionsJSON'],
      useBrowserAutofill: autofill,
    });
  } catch (error) {
    if (isCancel(error)) return 'cancelled';
    // The e-mail field's suggestions cannot be offered in this browser (Chromium without anywhere to
    // keep passkeys refuses conditional mediation so): nothing the borrower asked for.
    if (autofill && nameAndCode(error)?.name === 'NotSupportedError') return 'unavailable';
    return 'failed';
  }
  const answer = await postJson(`${origin}${passkeySignInPaths.verify}`, assertion);
  const body = (await answer.json().catch(() => null)) as {
    status?: string;
    sessionToken?: string;
    _embedded?: { user?: SignedInTransaction['user'] };
    errorCauses?: Array<{ errorSummary?: string }>;
  } | null;
  if (!answer.ok || body?.status !== 'SUCCESS') {
    const unknown = body?.errorCauses?.some((cause) => cause.errorSummary === UNKNOWN_PASSKEY_CAUSE);
    return unknown ? 'unknown' : 'failed';
  }
  return { status: 'SUCCESS', sessionToken: body.sessionToken, user: body._embedded?.user };
}

/**
 * Signs in with a passkey. `autofill`: the browser offers the passkeys in the e-mail field's
 * suggestions (conditional mediation) and the prompt waits for the borrower to pick one. On success
 * the page leaves for the identity provider; otherwise the outcome says why not.
 */
export async function signInWithPasskey({ autofill = false } = {}): Promise<PasskeyOutcome | undefined> {
  const answer = await passkeyAssertion(autofill);
  if (typeof answer === 'string') return answer;
  await finishSignIn(answer);
  return undefined;
}

/** Why a step-up with a passkey did not confirm the borrower; undefined when it did. */
export type PasskeyStepUpOutcome = PasskeyOutcome | 'another_account' | undefined;

/**
 * A step-up with a passkey: the signed-in borrower's own (a passkey signs in alone, so it is as
 * recent and strong as a sign-in gets). Another account's passkey changes nothing here:
 * 'another_account', and the borrower stays who they are. On success the product token is renewed.
 */
export async function confirmWithPasskey(signedInEmail: string): Promise<PasskeyStepUpOutcome> {
  const answer = await passkeyAssertion(false);
  if (typeof answer === 'string') return answer;
  const login = (answer.user?.profile as { login?: unknown } | undefined)?.login;
  if (typeof login !== 'string' || login.toLowerCase() !== signedInEmail.toLowerCase())
    return 'another_account';
  await renewSignIn(answer);
  return undefined;
}

/** Ends a waiting autofill prompt (the borrower signs in with the password instead). */
export async function cancelPasskeyPrompt(): Promise<void> {
  const { WebAuthnAbortService } = await import('@simplewebauthn/browser');
  WebAuthnAbortService.cancelCeremony();
}
