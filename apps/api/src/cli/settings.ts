import { z } from 'zod';
import {
  OperatorCredentialError,
  operatorCredentialPath,
  readOperatorCredential,
} from '../config/operator-credential.js';
import { PublicUrlSettingsSchema, publicUrlOf } from '../config/config.js';
import { failure, usageError } from './cli-error.js';

// Where the portal is and how the CLI proves it is an operator, from the environment.

export interface CliSettings {
  portalUrl: string;
  /** Read only when a command calls the portal (help needs none). */
  credential(): string;
}

const HttpUrl = z.url({ protocol: /^https?$/ });

export function settingsFrom(env: NodeJS.ProcessEnv): CliSettings {
  const portalUrl = env.PORTAL_URL || defaultPortalUrl(env);
  if (!HttpUrl.safeParse(portalUrl).success)
    throw usageError(
      `PORTAL_URL must be the portal's http(s) address, e.g. http://localhost:8080 (not "${portalUrl}").`,
    );
  return {
    portalUrl: portalUrl.replace(/\/+$/, ''),
    credential: () => credentialFrom(env),
  };
}

/** Where a portal started with the same environment serves: the server's own PUBLIC_URL derivation. */
function defaultPortalUrl(env: NodeJS.ProcessEnv): string {
  const parsed = PublicUrlSettingsSchema.safeParse({
    PORT: env.PORT || undefined,
    PUBLIC_URL: env.PUBLIC_URL || undefined,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw usageError(`${issue.path.join('.')} ${issue.message} (or set PORTAL_URL to the portal's address).`);
  }
  return publicUrlOf(parsed.data);
}

function credentialFrom(env: NodeJS.ProcessEnv): string {
  const given = env.OPERATOR_CREDENTIAL?.trim();
  if (given) return given;
  const file = operatorCredentialPath(env.DATA_DIR || 'data');
  let kept: string | undefined;
  try {
    kept = readOperatorCredential(file);
  } catch (error) {
    if (error instanceof OperatorCredentialError) throw failure(`The operator credential: ${error.message}.`);
    throw error;
  }
  if (kept) return kept;
  throw failure(
    'No operator credential. Set OPERATOR_CREDENTIAL to the secret of a credential of the `operator` scope in ' +
      `the portal's SERVICE_CREDENTIALS (an entry <name>:operator:<secret>). A portal started with npm start on this machine keeps one in ${file} ` +
      '(set DATA_DIR if it uses another data directory): start it once and try again.',
  );
}
