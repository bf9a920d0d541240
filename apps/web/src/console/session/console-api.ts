import {
  AUDIT_REASON_HEADER,
  STEP_UP_REQUIRED,
  addressOf,
  type CallInput,
  type Endpoint,
  type SuccessBody,
} from '@customer-core/contracts';
import type { MessageDescriptor } from '@lingui/core';
import { useCallback, useMemo } from 'react';
import { apiClient, type ApiResult } from '../../lib/api-client';
import { describeFailure } from '../../lib/api-failure';
import { readConsoleSession } from './console-session';
import { useConsoleSession } from './console-session-context';
import { describeConsoleFailure, quietFailure, type ConsoleFailure } from './console-failure';
import { useConfirmIdentity } from './console-step-up';

export type ConsoleOutcome<T> =
  { ok: true; status: number; data: T } | { ok: false; failure: ConsoleFailure };

/** A console call's input: the endpoint's own, and the reason it is made (the audit trail keeps it). */
export type ConsoleInput<E extends Endpoint> = CallInput<E> & {
  /** One line, at most 500 characters (AuditReasonSchema); left out when empty. */
  reason?: string | undefined;
  signal?: AbortSignal;
};

interface CallOptions {
  /** The screen's sentence for a refusal the API gave no words for, and for an unexpected answer. */
  fallback?: MessageDescriptor;
}

/** A file the API answers (a borrower's export): its bytes, and the name the API gave it if any. */
export interface DownloadedFile {
  blob: Blob;
  fileName: string | null;
}

function headersOf(reason: string | undefined): Record<string, string> | undefined {
  const text = reason?.trim();
  return text ? { [AUDIT_REASON_HEADER]: text } : undefined;
}

/** The bare transport for an answer that is a file, not JSON: the same failures as apiClient's. */
async function fetchFile(
  path: string,
  token: string,
  headers: Record<string, string> | undefined,
  signal: AbortSignal | undefined,
): Promise<ApiResult<DownloadedFile>> {
  try {
    const response = await fetch(path, {
      headers: { ...headers, Authorization: `Bearer ${token}` },
      credentials: 'same-origin',
      cache: 'no-store',
      signal,
    });
    if (response.status < 200 || response.status >= 400)
      return { isError: true, status: response.status, responseText: await response.text() };
    const disposition = response.headers.get('content-disposition') ?? '';
    const fileName = /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? null;
    return { isError: false, status: response.status, data: { blob: await response.blob(), fileName } };
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    return { isError: true, status: 500, responseText: text, exceptionThrown: true };
  }
}

/**
 * The operators' API as the signed-in staff member: every call with the console token (and a reason,
 * where given). A 401 ends the console session (the sign-in screen says so); a 403 step_up_required
 * asks the staff member to confirm it's them, then makes the call once more with the new token.
 */
export function useConsoleApi() {
  const { end } = useConsoleSession();
  const confirmIdentity = useConfirmIdentity();

  const run = useCallback(
    async <T>(
      send: (token: string) => Promise<ApiResult<T>>,
      options: CallOptions = {},
    ): Promise<ConsoleOutcome<T>> => {
      let token = readConsoleSession()?.accessToken;
      if (!token) {
        end('refused');
        return { ok: false, failure: quietFailure(401) };
      }
      let result = await send(token);
      let steppedUp = false;
      for (;;) {
        if (!result.isError) return { ok: true, status: result.status, data: result.data };
        if (result.exceptionThrown) break;
        const code = describeFailure(result, '').code;
        if (result.status === 401) {
          // Refused for a token replaced meanwhile (confirmed it's them elsewhere): once more with the new one.
          const stored = readConsoleSession()?.accessToken;
          if (stored && stored !== token) {
            token = stored;
            result = await send(token);
            continue;
          }
          end('refused');
          return { ok: false, failure: quietFailure(401, code) };
        }
        if (result.status === 403 && code === STEP_UP_REQUIRED && !steppedUp) {
          steppedUp = true;
          if (!(await confirmIdentity())) return { ok: false, failure: quietFailure(403, code) };
          token = readConsoleSession()?.accessToken;
          if (!token) return { ok: false, failure: quietFailure(401) };
          result = await send(token);
          continue;
        }
        break;
      }
      return { ok: false, failure: describeConsoleFailure(result, options.fallback) };
    },
    [end, confirmIdentity],
  );

  const call = useCallback(
    <E extends Endpoint>(
      endpoint: E,
      { reason, ...input }: ConsoleInput<E>,
      options?: CallOptions,
    ): Promise<ConsoleOutcome<SuccessBody<E>>> =>
      run(
        (token) =>
          apiClient.send(endpoint, { ...input, token, headers: headersOf(reason) } as ConsoleInput<E>),
        options,
      ),
    [run],
  );

  /** A call whose answer is a file (application/zip), not JSON. */
  const download = useCallback(
    <E extends Endpoint>(
      endpoint: E,
      { reason, signal, ...input }: ConsoleInput<E>,
      options?: CallOptions,
    ): Promise<ConsoleOutcome<DownloadedFile>> =>
      run(
        (token) => fetchFile(addressOf(endpoint, input as CallInput<E>), token, headersOf(reason), signal),
        options,
      ),
    [run],
  );

  return useMemo(() => ({ call, download }), [call, download]);
}
