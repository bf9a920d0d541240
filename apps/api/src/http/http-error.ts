import type { ApiErrorCode, TokenRefusalReason } from '@customer-core/contracts';

/** An error whose message is safe to show to the caller (status < 500). */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ApiErrorCode,
    message: string,
    /** For refused access tokens: which check failed. */
    readonly reason?: TokenRefusalReason,
  ) {
    super(message);
  }
}
