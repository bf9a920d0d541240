import { parseArgs } from 'node:util';
import { CliError, failure, usageError } from './cli-error.js';
import { validated, type Command } from './command.js';
import { AuditReasonSchema } from '@customer-core/contracts';
import { activity } from './commands/activity.js';
import { audit } from './commands/audit.js';
import { eraseBorrower, legalHold } from './commands/erase-borrower.js';
import { exportBorrower } from './commands/export-borrower.js';
import { resetFactors, unlock } from './commands/support.js';
import { resendInvitation, staff } from './commands/staff.js';
import { webhooks } from './commands/webhooks.js';
import { payments } from './commands/payments.js';
import { addLoan } from './commands/add-loan.js';
import { afterRestore } from './commands/after-restore.js';
import { invite } from './commands/invite.js';
import { listBorrowers } from './commands/list-borrowers.js';
import { mail } from './commands/mail.js';
import { migrate } from './commands/migrate.js';
import { rotateSecretsKey } from './commands/rotate-secrets-key.js';
import { rotateSigningKey } from './commands/rotate-signing-key.js';
import { sessions } from './commands/sessions.js';
import { recordInstalment } from './commands/record-instalment.js';
import { updateLoan } from './commands/update-loan.js';
import { portalClient, type PortalClient } from './portal-client.js';
import { ConfigError, loadConfig } from '../config/config.js';
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
  unlock,
  resendInvitation,
  resetFactors,
  activity,
  mail,
  audit,
  webhooks,
  payments,
  exportBorrower,
  eraseBorrower,
  legalHold,
  staff,
  migrate,
  afterRestore,
];

const HELP = `The operators' command line of customer-core: it calls the operators' API of a running portal;
migrate and after-restore are steps on the portal's database itself, run with the portal's settings.

Usage: npm run cli -- <command> [options]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(20)} ${c.summary}`).join('\n')}
  ${'help [command]'.padEnd(20)} Show this help, or a command's

Run npm run cli -- <command> --help for a command's options.
Every command also takes --reason <text>: why (a ticket, the caller's request), kept with each of its
calls in the portal's audit trail (npm run cli -- audit); migrate up and after-restore are recorded
there too, under the machine's user.
Amounts are in dollars, e.g. 250000 or 1250.50; dates are YYYY-MM-DD.

Environment:
  PORTAL_URL           The portal to call (default: PUBLIC_URL, else http://localhost:8080)
  OPERATOR_CREDENTIAL  The secret of a service credential of the \`operator\` scope (SERVICE_CREDENTIALS).
                       Default: the one a portal started with npm start keeps in <DATA_DIR>/operator-credential
  DATA_DIR             That portal's data directory (default: data)
  DATABASE_URL, ...    migrate and after-restore: the portal's own settings (see README, Operating it)

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

/**
 * The database steps, loaded only for the commands that run them: every other command is a client of
 * the API and loads none of the server's packages. A bad setting is told as the server tells it.
 */
async function databaseSteps(env: NodeJS.ProcessEnv, reason: string | null) {
  const { openDatabaseSteps } = await import('../database-steps.js');
  try {
    return await openDatabaseSteps(env, loadConfig(env), { reason });
  } catch (error) {
    if (error instanceof ConfigError) throw failure(`The portal's settings: ${error.message}`);
    throw error;
  }
}

const noPortal: PortalClient = {
  call: () => Promise.reject(new Error('a step on the database does not call the portal')),
  download: () => Promise.reject(new Error('a step on the database does not call the portal')),
};

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
    let values, positionals;
    try {
      ({ values, positionals } = parseArgs({
        args: rest,
        options: { ...command.options, reason: { type: 'string' } },
        strict: true,
        allowPositionals: command.positionals !== undefined,
      }));
    } catch (error) {
      throw argumentProblem(error, command);
    }
    // A step on the database needs no portal, nor its address.
    const settings = command.runsOn === 'database' ? undefined : settingsFrom(env);
    const { reason, ...options } = values as Record<string, string | boolean | undefined>;
    const why =
      typeof reason === 'string' ? validated(AuditReasonSchema, reason, { '': '--reason' }) : undefined;
    await command.run(options, {
      portal: settings ? portalClient(settings.portalUrl, settings.credential, why) : noPortal,
      print: io.out,
      positionals,
      database: () => databaseSteps(env, why ?? null),
    });
    return 0;
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    io.err(`Error: ${error.message}`);
    return error.exitCode;
  }
}
