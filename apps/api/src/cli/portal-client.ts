import {
  addressOf,
  AUDIT_REASON_HEADER,
  ApiErrorSchema,
  successAnswer,
  type CallInput,
  type Endpoint,
  type SuccessBody,
} from '@customer-core/contracts';
import { failure } from './cli-error.js';

// The CLI's one way to the portal: the operators' API, with the operator credential as Bearer token.

const TIMEOUT_MS = 30_000;

export interface PortalClient {
  /** Calls an operators' endpoint; its success answer, checked with the endpoint's schema. */
  call<E extends Endpoint>(endpoint: E, input: CallInput<E>): Promise<SuccessBody<E>>;
  /** Calls an operators' endpoint that answers with a file (an archive): its bytes. */
  download<E extends Endpoint>(endpoint: E, input: CallInput<E>): Promise<Uint8Array>;
}

/** `reason`: why the operator makes these calls (--reason), kept with each in the portal's audit trail. */
export function portalClient(portalUrl: string, credential: () => string, reason?: string): PortalClient {
  /** The answer to a call, once it is a success; a refusal or no answer is a failure, said plainly. */
  async function request<E extends Endpoint>(endpoint: E, input: CallInput<E>): Promise<Response> {
    const { method } = endpoint;
    const path = addressOf(endpoint, input);
    const { body } = input;
    const url = new URL(path, portalUrl);
    const authorization = `Bearer ${credential()}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          authorization,
          accept: 'application/json',
          ...(reason === undefined ? {} : { [AUDIT_REASON_HEADER]: reason }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      if ((error as Error).name === 'TimeoutError')
        throw failure(`The portal at ${portalUrl} did not answer within ${TIMEOUT_MS / 1000} seconds.`);
      throw failure(
        `No portal answers at ${portalUrl}. Is it running (npm start), and on that address? ` +
          'Set PORTAL_URL (or the PORT or PUBLIC_URL it was started with) to reach it elsewhere.',
      );
    }
    if (!response.ok) {
      throw failure(problemOf(response, jsonOf(await response.text()), portalUrl));
    }
    return response;
  }

  return {
    async call(endpoint, input) {
      const text = await (await request(endpoint, input)).text();
      const parsed = successAnswer(endpoint).safeParse(jsonOf(text));
      if (!parsed.success)
        throw failure(
          `The portal at ${portalUrl} answered ${endpoint.method} ${addressOf(endpoint, input)} with something this CLI does not understand. Is it the same version?`,
        );
      return parsed.data;
    },
    async download(endpoint, input) {
      return new Uint8Array(await (await request(endpoint, input)).arrayBuffer());
    },
  };
}

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function problemOf(response: Response, json: unknown, portalUrl: string): string {
  if (response.status === 401)
    return (
      `The portal at ${portalUrl} refused the operator credential. ` +
      'Set OPERATOR_CREDENTIAL to the secret of an entry of the `operator` scope in its SERVICE_CREDENTIALS ' +
      '(or, for a portal started with npm start on this machine, leave it unset to use <DATA_DIR>/operator-credential).'
    );
  if (response.status === 403)
    return (
      `The portal at ${portalUrl} knows this credential, but not for operators' calls. ` +
      'Set OPERATOR_CREDENTIAL to the secret of an entry of the `operator` scope (<name>:operator:<secret>) in its SERVICE_CREDENTIALS.'
    );
  const error = ApiErrorSchema.safeParse(json);
  if (!error.success)
    return `The portal at ${portalUrl} answered ${response.status} ${response.statusText}. Is it a customer-core portal of this version?`;
  const requestId = error.data.requestId ? ` (request ${error.data.requestId})` : '';
  return `${error.data.message}${requestId}`;
}
