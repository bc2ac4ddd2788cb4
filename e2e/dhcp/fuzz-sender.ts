// Runs inside a client namespace (node --import tsx): sends COUNT mutated packets (seeded) built from the
// corpus file (one hex packet per line) to the server, half unicast to TARGET:67 and half as limited
// broadcasts, paced at RATE per second. Prints "sent N" at the end.
// usage: fuzz-sender.ts CORPUS COUNT SEED RATE TARGET SOURCE
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { mutate, Xorshift } from '@oooi/dhcp/testing';

async function main(): Promise<void> {
  const [corpusFile, countText, seedText, rateText, target, source] = process.argv.slice(2);
  const corpus = readFileSync(corpusFile!, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => Uint8Array.from(Buffer.from(l, 'hex')));
  const count = Number(countText);
  const rate = Number(rateText);
  const rnd = new Xorshift(Number(seedText));
  const s = createSocket({ type: 'udp4', reuseAddr: true });
  s.on('error', () => undefined);
  await new Promise<void>((r) => s.bind(68, source, r));
  s.setBroadcast(true);
  const t0 = Date.now();
  let sent = 0;
  const burst = Math.max(1, Math.floor(rate / 100));
  while (sent < count) {
    for (let i = 0; i < burst && sent < count; i++, sent++) {
      const b = mutate(corpus, rnd);
      s.send(b, 67, sent % 2 === 0 ? target : '255.255.255.255');
    }
    const due = t0 + (sent / rate) * 1000;
    const wait = due - Date.now();
    await new Promise((r) => (wait > 0 ? setTimeout(r, wait) : setImmediate(r)));
  }
  await new Promise((r) => setTimeout(r, 200));
  s.close();
  process.stdout.write(`sent ${sent} in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
}
void main();
