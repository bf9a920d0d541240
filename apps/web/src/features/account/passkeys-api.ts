import {
  PASSKEY_ERROR_CODES,
  passkeyEndpoints,
  type ActivatePasskeyRequest,
  type PasskeyEnrolment,
} from '@customer-core/contracts';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { describeFailure, stepUpMessageOf } from '../../lib/api-failure';
import { sessionRequest } from '../../lib/auth/session-request';

// Adding a passkey (Bearer product token): the options from the identity provider, then the
// browser's new credential. The list and removal are the second factors' (second-factors-api.ts).

const START_FAILED = msg`We couldn’t start adding a passkey just now. Please try again in a few minutes.`;
const ADD_FAILED = msg`We couldn’t add your passkey just now. Please try again in a few minutes.`;

export type StartPasskeyOutcome =
  | { ok: true; enrolment: PasskeyEnrolment }
  /** `stepUp`: too old a sign-in; the step-up dialog, then the same request again. */
  | { ok: false; message: string; stepUp?: boolean };

export async function startPasskey(): Promise<StartPasskeyOutcome> {
  const result = await sessionRequest(passkeyEndpoints.enrol, {});
  if (result.isError) {
    const failure = describeFailure(result, i18n._(START_FAILED));
    const stepUp = stepUpMessageOf(failure);
    if (stepUp) return { ok: false, message: stepUp, stepUp: true };
    return { ok: false, message: failure.serverMessage ?? failure.message };
  }
  return { ok: true, enrolment: result.data };
}

export type AddPasskeyOutcome =
  | { kind: 'added' }
  /** The credential was refused (one already added, another site): the borrower may try another device. */
  | { kind: 'refused'; message: string }
  /** Too old a sign-in: the step-up dialog, then the same credential again. */
  | { kind: 'step-up'; message: string }
  | { kind: 'failed'; message: string };

export async function addPasskey(
  factorId: string,
  request: ActivatePasskeyRequest,
): Promise<AddPasskeyOutcome> {
  const result = await sessionRequest(passkeyEndpoints.activate, { params: { factorId }, body: request });
  if (!result.isError) return { kind: 'added' };
  const failure = describeFailure(result, i18n._(ADD_FAILED));
  if (failure.code === PASSKEY_ERROR_CODES.refused && failure.serverMessage)
    return { kind: 'refused', message: failure.serverMessage };
  const stepUp = stepUpMessageOf(failure);
  if (stepUp) return { kind: 'step-up', message: stepUp };
  return { kind: 'failed', message: failure.serverMessage ?? failure.message };
}
