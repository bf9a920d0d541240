import { runCli } from './run.js';

// `npm run cli -- <command> [options]`: see run.ts.
process.exitCode = await runCli(process.argv.slice(2), process.env, {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});
