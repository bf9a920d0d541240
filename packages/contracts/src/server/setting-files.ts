import { readFileSync } from 'node:fs';

// Container platforms hand secrets over as files (e.g. /run/secrets/...): every secret setting NAME
// may instead be given as NAME_FILE, the path of a file holding its value.

/**
 * The environment with each `<NAME>_FILE` of `names` read into `<NAME>` (its trailing newline
 * trimmed), and the problems found: both set, or a file that cannot be read. A problem names the
 * variable and the path, never the value.
 */
export function withSettingFiles(
  env: NodeJS.ProcessEnv,
  names: readonly string[],
): { env: NodeJS.ProcessEnv; problems: string[] } {
  const resolved: NodeJS.ProcessEnv = { ...env };
  const problems: string[] = [];
  for (const name of names) {
    const file = env[`${name}_FILE`];
    if (file === undefined || file === '') continue;
    if (env[name] !== undefined && env[name] !== '') {
      problems.push(`${name}_FILE: set ${name} or ${name}_FILE, not both`);
      continue;
    }
    try {
      resolved[name] = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      problems.push(
        `${name}_FILE: ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
    delete resolved[`${name}_FILE`];
  }
  return { env: resolved, problems };
}
