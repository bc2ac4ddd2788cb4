// The `oooi` command line (commander): `render` and `validate`, the controller's pure decisions offline, no
// cluster. Usage errors exit 2; each command's own exit codes are in its file.
import { Command, CommanderError, Option } from 'commander';
import { addImageOptions, imagesFrom } from './images-option';
import type { ImageFlags } from './images-option';
import { addNetworkPolicyOptions, networkPolicyFrom } from './network-policy-option';
import type { NetworkPolicyFlags } from './network-policy-option';
import { addPlacementOptions, placementFrom, type PlacementFlags } from './placement-option';
import { ExitCode, parseNow, runRender } from './render-command';
import type { Output } from './render-command';
import { runValidate } from './validate-command';

const collect = (value: string, previous: string[]): string[] => [...previous, value];

interface RenderFlags extends ImageFlags, NetworkPolicyFlags, PlacementFlags {
  readonly file: string[];
  readonly out: string;
  readonly now?: string;
}

function renderCommand(io: Output, setExit: (code: number) => void, clock: () => number): Command {
  const cmd = new Command('render')
    .description(
      'write the children and statuses the controller would apply, one YAML file per object, into DIR',
    )
    .requiredOption('-f, --file <file>', 'a YAML file (repeatable; - for stdin)', collect, [])
    .requiredOption('-o, --out <dir>', 'output directory (created; must be empty or absent)')
    .addOption(new Option('--now <rfc3339>', 'the clock of new condition transitions (default: now)'));
  addPlacementOptions(addNetworkPolicyOptions(addImageOptions(cmd)));
  return cmd.action((flags: RenderFlags) => {
    const now = flags.now === undefined ? clock() : parseNow(flags.now);
    if (now === undefined) {
      io.err(`--now: not an RFC 3339 time with a zone: ${flags.now}`);
      setExit(ExitCode.usage);
      return;
    }
    const networkPolicy = networkPolicyFrom(flags);
    if (!networkPolicy.ok) {
      io.err(networkPolicy.message);
      setExit(ExitCode.usage);
      return;
    }
    const placement = placementFrom(flags);
    if (!placement.ok) {
      io.err(placement.message);
      setExit(ExitCode.usage);
      return;
    }
    setExit(
      runRender(
        {
          files: flags.file,
          out: flags.out,
          now,
          images: imagesFrom(flags),
          networkPolicy: networkPolicy.value,
          nodeLossTolerationSeconds: placement.value,
        },
        io,
      ),
    );
  });
}

function validateCommand(io: Output, setExit: (code: number) => void): Command {
  return new Command('validate')
    .description('print every problem in the objects: admission rules and cross-object checks')
    .requiredOption('-f, --file <file>', 'a YAML file (repeatable; - for stdin)', collect, [])
    .action((flags: { file: string[] }) => setExit(runValidate(flags.file, io)));
}

/** Runs the CLI on argv (without node and script); returns the exit code. */
export function runCli(argv: readonly string[], io: Output, clock: () => number): number {
  let code: number = ExitCode.ok;
  const setExit = (c: number): void => {
    code = c;
  };
  const output = {
    writeOut: (s: string) => io.out(s.trimEnd()),
    writeErr: (s: string) => io.err(s.trimEnd()),
  };
  const program = new Command('oooi')
    .description("oooi offline: the Infra controller's decisions without a cluster")
    .exitOverride()
    .configureOutput(output);
  for (const sub of [renderCommand(io, setExit, clock), validateCommand(io, setExit)]) {
    program.addCommand(sub.exitOverride().configureOutput(output));
  }
  try {
    program.parse([...argv], { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    // A bug, not the input's fault: one line, no stack trace, nothing written (output is renamed into place last).
    io.err(`oooi: internal error: ${err instanceof Error ? err.message : String(err)}`);
    return ExitCode.problems;
  }
  return code;
}
