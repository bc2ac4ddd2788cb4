// Relays stream connections between a TCP address and a unix socket (or two of either), so a port on one
// network namespace's loopback can be reached from another through a socket file (files cross namespaces).
// usage: node forwarder.mjs --listen tcp:HOST:PORT|unix:PATH --connect tcp:HOST:PORT|unix:PATH [--ready FILE]
import net from 'node:net';
import fs from 'node:fs';

function parse(spec) {
  if (spec === undefined) throw new Error('forwarder: --listen and --connect are required');
  if (spec.startsWith('unix:')) return { path: spec.slice(5) };
  const m = /^tcp:(.+):(\d+)$/.exec(spec);
  if (m === null) throw new Error(`forwarder: bad address "${spec}"`);
  return { host: m[1], port: Number(m[2]) };
}

const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const listen = parse(opt('--listen'));
const connect = parse(opt('--connect'));
const ready = opt('--ready');

if (listen.path !== undefined) fs.rmSync(listen.path, { force: true });
const server = net.createServer((down) => {
  const up = net.connect(connect);
  const end = () => {
    down.destroy();
    up.destroy();
  };
  down.pipe(up);
  up.pipe(down);
  for (const s of [down, up]) {
    s.on('error', end);
    s.on('close', end);
  }
});
server.on('error', (err) => {
  console.error(`forwarder: ${err.message}`);
  process.exit(1);
});
server.listen(listen, () => {
  if (ready !== undefined) fs.writeFileSync(ready, `${process.pid}\n`);
  console.error(`forwarder ${process.pid}: ${opt('--listen')} -> ${opt('--connect')}`);
});
process.on('SIGTERM', () => process.exit(0));
