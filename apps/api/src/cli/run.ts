import { parseArgs } from 'node:util';
import { CliError, usageError } from './cli-error.js';
import type { Command } from './command.js';
import { activity } from './commands/activity.js';
import { addLoan } from './commands/add-loan.js';
import { invite } from './commands/invite.js';
import { listBorrowers } from './commands/list-borrowers.js';
import { rotateSecretsKey } from './commands/rotate-secrets-key.js';
import { rotateSigningKey } from './commands/rotate-signing-key.js';
import { sessions } from './commands/sessions.js';
import { recordInstalment } from './commands/record-instalment.js';
import { updateLoan } from './commands/update-loan.js';
import { portalClient } from './portal-client.js';
import { settingsFrom } from './settings.js';

// The operators' command line: a thin client of the operators' API of a running portal.

const COMMANDS: Command[] = [
  invite,
  addLoan,
  updateLoan,
  recordInstalment,
  listBorrowers,
  rotateSigningKey,
  rotateSecretsKey,
  sessions,
  activity,
];

const HELP = `The operators' command line of customer-core: it calls the operators' API of a running portal.

Usage: npm run cli -- <command> [options]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(20)} ${c.summary}`).join('\n')}
  ${'help [command]'.padEnd(20)} Show this help, or a command's

Run npm run cli -- <command> --help for a command's options.
Amounts are in dollars, e.g. 250000 or 1250.50; dates are YYYY-MM-DD.

Environment:
  PORTAL_URL           The portal to call (default: PUBLIC_URL, else http://localhost:8080)
  OPERATOR_CREDENTIAL  The secret of a service credential of the \`operator\` scope (SERVICE_CREDENTIALS).
                       Default: the one a portal started with npm start keeps in <DATA_DIR>/operator-credential
  DATA_DIR             That portal's data directory (default: data)

Exit status: 0 done, 1 the portal refused or could not be reached, 2 bad arguments.`;

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

const commandNamed = (name: string) => COMMANDS.find((c) => c.name === name);

function unknownCommand(name: string): CliError {
  return usageError(
    `Unknown command "${name}". Commands: ${COMMANDS.map((c) => c.name).join(', ')}, help. See: npm run cli -- help`,
  );
}

/** parseArgs' complaint, told as which option is wrong and how to fix it. */
function argumentProblem(error: unknown, command: Command): CliError {
  const { code, message } = error as { code?: string; message: string };
  const option = /'(-{1,2}[^' =]+)/.exec(message)?.[1];
  const hint = `See: npm run cli -- ${command.name} --help`;
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return usageError(`${command.name} has no option ${option ?? message}. ${hint}`);
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return usageError(
        message.includes('does not take an argument')
          ? `${option} takes no value. ${hint}`
          : `${option} needs a value (to give one that starts with a dash, write ${option}=<value>). ${hint}`,
      );
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return usageError(
        `${command.name} takes options only, not "${/'([^']*)'/.exec(message)?.[1] ?? ''}". ${hint}`,
      );
    default:
      return usageError(`${message} ${hint}`);
  }
}

/** Runs one command line; the exit status. */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  try {
    if (name === undefined) {
      io.err(HELP);
      return 2;
    }
    if (name === 'help' || name === '--help' || name === '-h') {
      const topic = name === 'help' ? rest[0] : undefined;
      const command = topic === undefined ? undefined : commandNamed(topic);
      if (topic !== undefined && !command) throw unknownCommand(topic);
      io.out(command ? command.help : HELP);
      return 0;
    }
    const command = commandNamed(name);
    if (!command) throw unknownCommand(name);
    if (rest.includes('--help') || rest.includes('-h')) {
      io.out(command.help);
      return 0;
    }
    let values;
    try {
      ({ values } = parseArgs({
        args: rest,
        options: command.options,
        strict: true,
        allowPositionals: false,
      }));
    } catch (error) {
      throw argumentProblem(error, command);
    }
    const settings = settingsFrom(env);
    await command.run(values as Record<string, string | boolean | undefined>, {
      portal: portalClient(settings.portalUrl, settings.credential),
      print: io.out,
    });
    return 0;
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    io.err(`Error: ${error.message}`);
    return error.exitCode;
  }
}
