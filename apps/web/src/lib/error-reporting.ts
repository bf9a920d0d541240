// The one seam for reporting unexpected errors. Production error reporting (spec section 1: only in
// production, decided from the host name) will be wired in here; until then errors go to the console.

export interface ErrorContext {
  /** Where the error was caught, e.g. 'route' or 'app'. */
  source: string;
  [detail: string]: unknown;
}

export function reportError(error: unknown, context: ErrorContext): void {
  console.error(`[${context.source}] unexpected error`, error, context);
}
