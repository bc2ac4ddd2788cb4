// Entry of the `oooi` CLI (`pnpm --silent oooi …` runs it with tsx): render and validate, offline. It writes only
// its own output: results on stdout, problems on stderr (validate prints its problems on stdout).
import { runCli } from './offline/cli/program';

process.exitCode = runCli(
  process.argv.slice(2),
  {
    out: (line) => void process.stdout.write(`${line}\n`),
    err: (line) => void process.stderr.write(`${line}\n`),
  },
  () => Date.now(),
);
