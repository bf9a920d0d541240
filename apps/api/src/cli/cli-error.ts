/** A failure the CLI reports as a message and an exit code; never a stack trace. */
export class CliError extends Error {
  constructor(
    message: string,
    /** 2: the command line was wrong; 1: anything else. */
    readonly exitCode: 1 | 2,
  ) {
    super(message);
  }
}

export const usageError = (message: string) => new CliError(message, 2);
export const failure = (message: string) => new CliError(message, 1);
