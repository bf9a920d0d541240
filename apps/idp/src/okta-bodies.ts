import type { z } from 'zod';
import { BLANK_FIELD, NOT_KEPT, type OktaError } from '@customer-core/contracts/server';
import { apiValidationFailed, malformedRequest } from './okta-errors.js';

// The Management API's bodies are defined in @customer-core/contracts/server (okta-api.ts), with
// the API that sends them; here, how a refused one is answered, in Okta's words.

/** The field Okta names for an issue: the profile property, or `password` for any credential. */
function fieldOf(path: readonly PropertyKey[]): string {
  if (path[0] === 'credentials') return 'password';
  if (path[0] === 'oldPassword' || path[0] === 'newPassword') return path[0];
  const last = path.at(-1);
  return typeof last === 'string' ? last : 'body';
}

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let value = body;
  for (const key of path)
    value =
      value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

/**
 * The body, or the refusal Okta would send: E0000003 when it is not a JSON object, E0000001 naming
 * each refused field ("login: ...") and the first of them in the summary.
 */
export function parseOktaBody<T>(
  schema: z.ZodType<T>,
  body: unknown,
): { success: true; data: T } | { success: false; error: OktaError } {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return { success: false, error: malformedRequest() };
  const parsed = schema.safeParse(body);
  if (parsed.success) return { success: true, data: parsed.data };
  const causes = parsed.error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((key) => ({ field: key, message: NOT_KEPT }));
    const field = fieldOf(issue.path);
    const missing = issue.code === 'invalid_type' && valueAt(body, issue.path) == null;
    return [{ field, message: missing ? BLANK_FIELD : issue.message }];
  });
  return {
    success: false,
    error: apiValidationFailed(
      causes[0]?.field ?? 'body',
      causes.map(({ field, message }) => `${field}: ${message}`),
    ),
  };
}
