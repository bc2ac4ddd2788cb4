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
  const result = await runSandbox({
    name: 'sandbox',
    say,
    progress: (line) => void process.stderr.write(`${line}\n`),
    beforeTeardown: async (kubeconfig) => {
      if (argv.includes('--print-kubeconfig'))
        say(`\n# kubeconfig (${kubeconfig}):\n${readFileSync(kubeconfig, 'utf8')}`);
      if (!argv.includes('--keep')) return;
      say(`\n# everything keeps running; kubectl --kubeconfig ${kubeconfig} …; Ctrl-C stops it all`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
    },
  });
  say('\n# what the VM saw');
  say(`lease   ${result.lease.ip} (router ${result.lease.router ?? '-'}, DNS ${result.lease.dns ?? '-'})`);
  say(`dns     ${result.dns.name} -> ${result.dns.answers.join(', ')} (asked ${result.dns.server})`);
  say(`tls     ${result.tls.sni} via ${result.tls.address}:6443 -> ${result.tls.peer}`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`sandbox failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
