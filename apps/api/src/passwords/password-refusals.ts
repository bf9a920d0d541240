import { API_ERROR_CODES, PASSWORD_REFUSED_MESSAGE } from '@customer-core/contracts';
import { HttpError } from '../http/http-error.js';
import { COMMON_PASSWORD_MESSAGE } from './common-passwords.js';

// How a route answers a new password it cannot take: the same words wherever one is chosen
// (registration, password reset, password change).

/** One of the passwords everyone tries (isCommonPassword), refused before the directory sees it. */
export const passwordTooCommon = () =>
  new HttpError(400, API_ERROR_CODES.passwordTooCommon, COMMON_PASSWORD_MESSAGE);

/** The directory's password policy refused it; `requirements` is its sentence saying what it asks. */
export const passwordRefused = (requirements: string) =>
  new HttpError(400, API_ERROR_CODES.passwordRefused, `${PASSWORD_REFUSED_MESSAGE} ${requirements}`);
