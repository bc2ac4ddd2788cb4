// `pnpm rig …` — install peers, print a peer's path, start/stop/restart/inspect named control planes.
// stdout carries only results (a path, the kubeconfig path as the last line of `up`); progress goes to stderr.
import { Command, InvalidArgumentError } from 'commander';
import { rigBin, rigInstall } from './bins';
import { rigDown, rigDownAll, rigStatus, type DownResult } from './down';
import { componentNames, isComponentName } from './state';
import { rigRestart, rigUp } from './up';

const say = (line: string): void => void process.stderr.write(`${line}\n`);

function describe(r: DownResult): string {
  return `rig ${r.name}: down (${r.stoppedComponents} components, ${r.stoppedHelpers} helpers, ${r.deletedNetns} netns)`;
}

function program(): Command {
  const p = new Command('rig').description('the oooi real-cluster rig (e2e/rig/README.md)');
  p.command('install [pieces...]')
    .description(
      'install pinned peers into the cache (pieces: apt k8s etcd kwok coredns helm envoy olm gcp; default all but gcp)',
    )
    .action(async (pieces: string[]) => void (await rigInstall(pieces, process.stdout)));
  p.command('bin <name>')
    .description('print the absolute path of a peer binary, installing it first if needed')
    .action(async (name: string) => void process.stdout.write(`${await rigBin(name)}\n`));
  p.command('up')
    .description('start control plane NAME (or find it running); prints its kubeconfig path last')
    .option('--name <name>', 'run name', 'default')
    .action(async (o: { name: string }) => {
      const rig = await rigUp({ name: o.name, log: say });
      say(`rig ${rig.name}: server ${rig.server}`);
      process.stdout.write(`${rig.kubeconfig}\n`);
    });
  p.command('down')
    .description('stop control plane NAME (or every run) and free its directory and namespaces')
    .option('--name <name>', 'run name', 'default')
    .option('--all', 'every run under the cache')
    .action(async (o: { name: string; all?: boolean }) => {
      const results = o.all === true ? await rigDownAll() : [await rigDown(o.name)];
      for (const r of results) say(describe(r));
    });
  p.command('restart <component>')
    .description(`restart one component on its recorded port and flags (${componentNames.join(', ')})`)
    .option('--name <name>', 'run name', 'default')
    .action(async (component: string, o: { name: string }) => {
      if (!isComponentName(component)) {
        throw new InvalidArgumentError(
          `unknown component "${component}" (want ${componentNames.join(', ')})`,
        );
      }
      await rigRestart(o.name, component);
      say(`rig ${o.name}: ${component} restarted`);
    });
  p.command('status')
    .description('show the recorded processes of run NAME and whether they are alive')
    .option('--name <name>', 'run name', 'default')
    .option('--json', 'machine-readable')
    .action((o: { name: string; json?: boolean }) => {
      const s = rigStatus(o.name);
      if (o.json === true) return void process.stdout.write(`${JSON.stringify(s, null, 2)}\n`);
      const lines = [`run ${s.name}: ${s.exists ? (s.server ?? '') : 'not running'}`];
      if (s.kubeconfig !== undefined) lines.push(`  kubeconfig ${s.kubeconfig}`);
      for (const c of s.components) {
        if (c.pid !== undefined)
          lines.push(`  ${c.name.padEnd(19)} pid ${c.pid} ${c.alive ? 'alive' : 'DEAD'}`);
      }
      for (const h of s.helpers) lines.push(`  helper ${h.label} pid ${h.pid} ${h.alive ? 'alive' : 'dead'}`);
      for (const n of s.netns) lines.push(`  netns ${n}`);
      process.stdout.write(`${lines.join('\n')}\n`);
    });
  return p;
}

program()
  .parseAsync(process.argv)
  .catch((err: unknown) => {
    say(err instanceof Error ? err.message : String(err));
    process.exitCode = 1;
  });
