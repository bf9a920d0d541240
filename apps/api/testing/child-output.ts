import type { ChildProcess } from 'node:child_process';

/** The last `max` lines a child server printed (both streams), to say why it ended or never got ready. */
export function keepLastLines(child: ChildProcess, max = 50): string[] {
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      for (const line of chunk.split('\n')) if (line.trim()) lines.push(line);
      lines.splice(0, Math.max(0, lines.length - max));
    });
  }
  return lines;
}
