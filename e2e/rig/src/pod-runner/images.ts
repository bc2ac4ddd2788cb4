// Which local program runs a container image. The default map: CoreDNS and Envoy images → the rig's binaries;
// the project's own images → its built bundle (dist/oooi-<pkg>.js, when newer than the sources) or the
// sources through tsx. Callers may pass their own rules (first match wins).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { rigBin } from '../bins';
import { repoRoot } from '../config';

export interface ImageRule {
  /** A name for messages ("coredns"). */
  readonly name: string;
  /** True when this rule runs IMAGE. */
  readonly match: (image: string) => boolean;
  /** The argv that stands for the image's entrypoint (absolute paths). */
  readonly entrypoint: () => Promise<string[]>;
  /**
   * When the container sets `command`: the arguments left after the part that names the image's own
   * entrypoint (e.g. ["/coredns", "-conf", "x"] → ["-conf", "x"]), or undefined when `command` runs
   * something else (then it is run as written).
   */
  readonly stripCommand: (command: readonly string[]) => string[] | undefined;
  /** Arguments always added (unless already present), e.g. Envoy's --disable-hot-restart. */
  readonly extraArgs?: readonly string[];
}

export type ImageMap = readonly ImageRule[];

function byNames(names: readonly string[]): ImageRule['stripCommand'] {
  return (command) => (names.includes(basename(command[0] ?? '')) ? command.slice(1) : undefined);
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** `node dist/oooi-<pkg>.js` when that bundle exists and is newer than src/, else `node --import tsx src/main.ts`. */
export function oooiEntrypoint(pkg: string, root: string = repoRoot): string[] {
  const dist = join(root, 'packages', pkg, 'dist', `oooi-${pkg}.js`);
  const src = join(root, 'packages', pkg, 'src');
  if (existsSync(dist) && (!existsSync(src) || statSync(dist).mtimeMs >= newestMtime(src))) {
    return [process.execPath, dist];
  }
  const loader = pathToFileURL(join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
  return [process.execPath, '--import', loader, join(src, 'main.ts')];
}

function oooiRule(pkg: 'dhcp' | 'xds' | 'controller'): ImageRule {
  const bin = `oooi-${pkg}`;
  return {
    name: bin,
    match: (image) => new RegExp(`(^|/)${bin}(:|@|$)`).test(image),
    entrypoint: () => Promise.resolve(oooiEntrypoint(pkg)),
    stripCommand: (command) => {
      const [c0 = '', c1 = ''] = command;
      if (basename(c0) === 'node' && new RegExp(`${bin}(\\.c?m?js)?$`).test(c1)) return command.slice(2);
      return [bin, `${bin}.js`].includes(basename(c0)) ? command.slice(1) : undefined;
    },
  };
}

/** The default image map. */
export function defaultImageMap(): ImageRule[] {
  return [
    {
      name: 'coredns',
      match: (image) => image.includes('coredns'),
      entrypoint: async () => [await rigBin('coredns')],
      stripCommand: byNames(['coredns']),
    },
    {
      name: 'envoy',
      match: (image) => image.includes('envoyproxy/envoy'),
      entrypoint: async () => [await rigBin('envoy')],
      stripCommand: byNames(['envoy', 'docker-entrypoint.sh']),
      extraArgs: ['--disable-hot-restart'],
    },
    oooiRule('dhcp'),
    oooiRule('xds'),
    oooiRule('controller'),
  ];
}

/**
 * The argv for a container (pure once the entrypoint is known): the entrypoint replaces the image's own
 * program whether `command` names it or is absent; a `command` naming anything else runs as written.
 */
export function containerArgv(
  rule: Pick<ImageRule, 'stripCommand' | 'extraArgs'>,
  entrypoint: readonly string[],
  c: { command?: readonly string[] | undefined; args: readonly string[] },
): string[] {
  let argv: string[];
  if (c.command !== undefined && c.command.length > 0) {
    const rest = rule.stripCommand(c.command);
    argv = rest === undefined ? [...c.command, ...c.args] : [...entrypoint, ...rest, ...c.args];
  } else {
    // an args-only container whose first arg names the program (docker-entrypoint.sh style) runs it once
    const rest = c.args.length > 0 ? rule.stripCommand(c.args) : undefined;
    argv = [...entrypoint, ...(rest ?? c.args)];
  }
  for (const extra of rule.extraArgs ?? []) if (!argv.includes(extra)) argv.push(extra);
  return argv;
}
