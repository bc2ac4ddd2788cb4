import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { sendReloadSignal } from './reload-signal';

let dir: string;
let child: ChildProcess | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'oooi-signal-'));
});
afterEach(() => {
  child?.kill('SIGKILL');
  child = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** A real process that prints a line for every SIGUSR1 it gets. */
async function listener(): Promise<{ proc: ChildProcess; got: () => number }> {
  const proc = spawn(
    process.execPath,
    [
      '-e',
      "process.on('SIGUSR1', () => console.log('usr1')); console.log('up'); setInterval(() => {}, 1000);",
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  child = proc;
  let out = '';
  proc.stdout.on('data', (b: Buffer) => (out += b.toString()));
  while (!out.includes('up')) await once(proc.stdout, 'data');
  return { proc, got: () => out.split('\n').filter((l) => l === 'usr1').length };
}

describe('sendReloadSignal', () => {
  test('signals the PID of the pidfile when /proc/<pid>/comm names the expected program', async () => {
    const { proc, got } = await listener();
    const pidFile = join(dir, 'pid');
    writeFileSync(pidFile, `${proc.pid}\n`);
    await expect(sendReloadSignal({ pidFile, processName: 'node' })).resolves.toEqual({
      sent: true,
      pid: proc.pid,
    });
    while (got() < 1) await once(proc.stdout!, 'data');
    expect(got()).toBe(1);
  });

  test.each([
    { name: 'no pidfile', pidText: undefined, comm: 'coredns', wantWhy: 'no pidfile' },
    { name: 'garbage in the pidfile', pidText: 'x\n', comm: 'coredns', wantWhy: 'not a PID' },
    { name: 'PID 1', pidText: '1', comm: 'coredns', wantWhy: 'not a PID' },
    // PIDs above Linux's largest pid_max (2^22): even a broken check could not signal anyone
    {
      name: 'a PID that is another program',
      pidText: '9999991',
      comm: 'sshd',
      wantWhy: '"sshd", not coredns',
    },
    { name: 'a PID that is gone', pidText: '9999992', comm: undefined, wantWhy: 'gone' },
  ])('sends nothing for $name', async ({ pidText, comm, wantWhy }) => {
    const pidFile = join(dir, 'pid');
    if (pidText !== undefined) writeFileSync(pidFile, pidText);
    // A /proc of our own, so a PID that is someone else's program is tested without signalling anyone.
    const procDir = join(dir, 'proc');
    if (comm !== undefined) {
      mkdirSync(join(procDir, pidText ?? ''), { recursive: true });
      writeFileSync(join(procDir, pidText ?? '', 'comm'), `${comm}\n`);
    }
    const r = await sendReloadSignal({ pidFile, processName: 'coredns', procDir });
    expect(r.sent).toBe(false);
    expect(r.sent === false && r.why).toContain(wantWhy);
  });
});
