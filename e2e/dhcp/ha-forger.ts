// Runs inside a namespace of the test (node --import tsx): plays a stranger on the pair's port. Opens one TCP
// connection per attempt to TARGET:PORT — a hello under a guessed secret, a lease update without any hello, plain
// garbage — and prints "closed <attempt>" when the server hangs up (or "open <attempt>" if it did not within 3 s).
// usage: ha-forger.ts TARGET PORT
import { connect } from 'node:net';
import { sealFrame } from '@oooi/dhcp';

const [target = '', port = '0'] = process.argv.slice(2);
const lease = {
  ip: 0xc6336478,
  clientKey: 'hw:02:66:66:66:66:66',
  mac: '02:66:66:66:66:66',
  state: 'bound',
  expiresAt: Date.now() + 3_600_000,
};
const attempts: [string, Buffer][] = [
  [
    'guessed-secret',
    sealFrame(Buffer.alloc(32, 0x41), 0, 0, { t: 'hello', role: 'standby', nonce: '0'.repeat(32) }),
  ],
  ['lease-without-hello', sealFrame(Buffer.alloc(32, 0x41), 0, 1, { t: 'leases', id: 1, leases: [lease] })],
  ['garbage', Buffer.from('\x00\x00\x00\x05hello' + 'x'.repeat(40))],
];

async function attempt(name: string, bytes: Buffer): Promise<void> {
  await new Promise<void>((resolve) => {
    const c = connect({ host: target, port: Number(port) }, () => c.write(bytes));
    const timer = setTimeout(() => {
      console.log(`open ${name}`);
      c.destroy();
      resolve();
    }, 3000);
    c.on('error', () => undefined);
    c.on('close', () => {
      clearTimeout(timer);
      console.log(`closed ${name}`);
      resolve();
    });
  });
}

void (async () => {
  for (const [name, bytes] of attempts) await attempt(name, bytes);
})();
