// `./scripts/demo.sh [--keep] [--print-kubeconfig]` (the README's first command) runs this: the sandbox of
// sandbox.ts, its story on stdout, progress on stderr. --keep leaves everything running until Ctrl-C (the
// kubeconfig path is printed, for kubectl); --print-kubeconfig prints the kubeconfig's content as well.
import { readFileSync } from 'node:fs';
import { runSandbox } from './sandbox';

const usage = 'usage: demo.sh [--keep] [--print-kubeconfig]';

async function main(argv: readonly string[]): Promise<number> {
  const unknown = argv.filter((a) => !['--keep', '--print-kubeconfig', '--help', '-h'].includes(a));
  if (argv.includes('--help') || argv.includes('-h') || unknown.length > 0) {
    process.stderr.write(`${unknown.length > 0 ? `unknown option: ${unknown.join(' ')}\n` : ''}${usage}\n`);
    return unknown.length > 0 ? 2 : 0;
  }
  const say = (line: string) => void process.stdout.write(`${line}\n`);
  // Ctrl-C (or SIGTERM) at any moment stops the sandbox the way it ends: everything started is torn down. A
  // second one exits at once; `pnpm rig down --name sandbox` (and `sandbox-hosted-alpha`, `sandbox-hosted-bravo`)
  // then removes what is left.
  const interrupted = new AbortController();
  const onSignal = (): void => {
    if (interrupted.signal.aborted) process.exit(130);
    process.stderr.write('sandbox: stopping everything it started (again to exit at once)\n');
    interrupted.abort(new Error('interrupted'));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const result = await runSandbox({
    name: 'sandbox',
    say,
    progress: (line) => void process.stderr.write(`${line}\n`),
    signal: interrupted.signal,
    beforeTeardown: async (kubeconfig) => {
      if (argv.includes('--print-kubeconfig'))
        say(`\n# kubeconfig (${kubeconfig}):\n${readFileSync(kubeconfig, 'utf8')}`);
      if (!argv.includes('--keep')) return;
      say(`\n# everything keeps running; kubectl --kubeconfig ${kubeconfig} …; Ctrl-C stops it all`);
      if (!interrupted.signal.aborted)
        await new Promise<void>((resolve) => interrupted.signal.addEventListener('abort', () => resolve()));
    },
  });
  say('\n# what the sandbox shows');
  for (const r of result.ready) say(`ready   ${r}`);
  for (const c of result.containers)
    say(
      `runs    ${c.container}: ${c.id === undefined ? 'a process' : `container ${c.id.slice(0, 12)} of ${c.image ?? '?'}`}`,
    );
  say(`lease   ${result.lease.ip} (router ${result.lease.router ?? '-'}, DNS ${result.lease.dns ?? '-'})`);
  say(`dns     ${result.dns.name} -> ${result.dns.answers.join(', ')} (asked ${result.dns.server})`);
  say(`api     ${result.api.url} via ${result.api.address} -> kube-apiserver ${result.api.gitVersion}`);
  const vm = result.apps.vm;
  say(`apps    ${vm.name} -> ${vm.answers.join(', ')} (asked ${vm.server}) -> ${vm.http}`);
  for (const c of result.apps.pod.clusters) {
    say(`pod     ${c.name} -> ${c.answers.join(', ')} (asked ${c.server}), through Envoy:`);
    say(`          http ${c.http}`);
    say(`          tls  CN=${c.tls}`);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof Error && err.message === 'interrupted') {
      process.stderr.write('sandbox: interrupted\n');
      process.exitCode = 130;
      return;
    }
    process.stderr.write(`sandbox failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
