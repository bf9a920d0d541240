import { API_ERROR_CODES, type ApiErrorCode, type TokenRefusalReason } from '@customer-core/contracts';
import { HttpError } from '../http/http-error.js';
import type { IdTokenProblem, IdTokenSpent } from './id-token-verifier.js';

// What a caller is told about a token that was refused: enough to fix the call, nothing more.

const ID_TOKEN_MESSAGES: Record<IdTokenProblem, string> = {
  malformed: 'The ID token is not a well-formed JWT.',
  unknown_issuer: 'The ID token was issued by an identity provider this portal does not trust.',
  wrong_audience: 'The ID token was not issued for this portal.',
  expired: 'The ID token has expired. Sign in again.',
  bad_signature: 'The ID token signature is invalid.',
  invalid: 'The ID token is missing required claims.',
};

export function idTokenRefused(problem: IdTokenProblem): HttpError {
  return problem === 'malformed'
    ? new HttpError(400, 'malformed_token', ID_TOKEN_MESSAGES[problem])
    : new HttpError(401, 'invalid_token', ID_TOKEN_MESSAGES[problem]);
}

const SPENT_ID_TOKENS: Record<IdTokenSpent, { code: ApiErrorCode; message: string }> = {
  used: {
    code: API_ERROR_CODES.idTokenUsed,
    message: 'The ID token has been used already. Sign in again.',
  },
  revoked: {
    code: API_ERROR_CODES.idTokenRevoked,
    message:
      'The ID token was issued before the password was changed or every session was ended. Sign in again.',
  },
  idp_session_ended: {
    code: API_ERROR_CODES.idpSessionEnded,
    message: 'The identity provider session of the ID token has ended. Sign in again.',
  },
};

export function idTokenSpent(why: IdTokenSpent): HttpError {
  return new HttpError(401, SPENT_ID_TOKENS[why].code, SPENT_ID_TOKENS[why].message);
}

const ACCESS_TOKEN_MESSAGES: Record<TokenRefusalReason, string> = {
  malformed: 'The access token is not a well-formed JWT.',
  unsupported_algorithm: 'The access token uses an algorithm this API does not accept.',
  bad_signature: 'The access token signature is invalid.',
  wrong_issuer: 'The access token was not issued by this API.',
  wrong_audience: 'The access token was not issued for this API.',
  expired: 'The access token has expired.',
  revoked: 'The access token has been revoked. Sign in again.',
  session_expired: 'The sign-in session has reached its maximum age. Sign in again.',
  superseded: 'The access token was refreshed: use the newer token.',
};

export function accessTokenRefused(reason: TokenRefusalReason): HttpError {
  return reason === 'malformed'
    ? new HttpError(400, 'malformed_token', ACCESS_TOKEN_MESSAGES[reason], reason)
    : new HttpError(401, 'invalid_token', ACCESS_TOKEN_MESSAGES[reason], reason);
}
