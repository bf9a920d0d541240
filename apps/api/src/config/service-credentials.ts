import { createHash } from 'node:crypto';

// Service credentials: the Bearer secrets of trusted systems and operators. Each one is good for one
// scope, so a system that only needs lookup tokens cannot list borrowers, invite or rotate keys.

export const SERVICE_SCOPES = {
  /** Mint one-time lookup tokens for borrowers (a servicing system's "open the portal as" link). */
  'lookup-tokens': 'lookup tokens',
  /** The operators' API: invitations, loans, the list of borrowers, signing keys (what the CLI calls). */
  operator: "operators' calls",
} as const;

export type ServiceScope = keyof typeof SERVICE_SCOPES;

export interface ServiceCredential {
  /** Who it is, for the log. */
  name: string;
  scope: ServiceScope;
  /** sha-256 of the secret (the secret itself is not kept). */
  digest: Buffer;
}

/** As the configuration requires of every secret. */
export const MIN_SECRET_LENGTH = 32;

export const serviceCredential = (name: string, scope: ServiceScope, secret: string): ServiceCredential => ({
  name,
  scope,
  digest: createHash('sha256').update(secret).digest(),
});

const FORMAT = `each entry is name:scope:secret (scope ${Object.keys(SERVICE_SCOPES).join(' or ')}, secret of ${MIN_SECRET_LENGTH}+ characters), entries separated by commas`;

/**
 * SERVICE_CREDENTIALS, e.g. `servicing:lookup-tokens:<secret>,ops:operator:<secret>`: the credentials,
 * or the problems (never quoting a secret). A system that needs both scopes has two entries.
 */
export function parseServiceCredentials(value: string | undefined): {
  credentials: ServiceCredential[];
  problems: string[];
} {
  const credentials: ServiceCredential[] = [];
  const problems: string[] = [];
  const entries = (value ?? '').split(',').map((entry) => entry.trim());
  if (entries.length === 1 && entries[0] === '') return { credentials, problems };
  for (const [index, entry] of entries.entries()) {
    const [name = '', scope = '', ...rest] = entry.split(':');
    const secret = rest.join(':');
    const which = /^[\w.-]+$/.test(name) ? `"${name}"` : `entry ${index + 1}`;
    if (!/^[\w.-]+$/.test(name)) problems.push(`SERVICE_CREDENTIALS: ${which} has no valid name; ${FORMAT}`);
    else if (rest.length === 0)
      problems.push(
        `SERVICE_CREDENTIALS: ${which} has no scope (the name:secret form is no longer accepted); ${FORMAT}`,
      );
    else if (!Object.hasOwn(SERVICE_SCOPES, scope))
      problems.push(`SERVICE_CREDENTIALS: ${which} has no known scope; ${FORMAT}`);
    else if (secret.length < MIN_SECRET_LENGTH || /\s/.test(secret))
      problems.push(
        `SERVICE_CREDENTIALS: the secret of ${which} must be at least ${MIN_SECRET_LENGTH} characters, without spaces`,
      );
    else if (credentials.some((c) => c.name === name && c.scope === scope))
      problems.push(`SERVICE_CREDENTIALS: ${which} is given the ${scope} scope twice`);
    else credentials.push(serviceCredential(name, scope as ServiceScope, secret));
  }
  return { credentials, problems };
}
