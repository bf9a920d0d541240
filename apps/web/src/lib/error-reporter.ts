/** What an unexpected error is reported with, and the shape of a service that takes such reports. */
export interface ErrorContext {
  /** Where the error was caught, e.g. 'route' or 'app'. */
  source: string;
  [detail: string]: unknown;
}

export type ErrorReporter = (error: unknown, context: ErrorContext) => void;
