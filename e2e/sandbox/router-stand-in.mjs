// A hosted cluster's router, standing in for the OpenShift router behind its MetalLB address: plain HTTP on 80
// and HTTPS on 443, both answering every request with `<cluster> router: <scheme> <Host><path>`, so a client sees
// which cluster's router served it and for which Host. Run by stand-ins.ts inside a namespace of the sandbox.
// usage: node router-stand-in.mjs --cluster NAME --address IP --cert FILE --key FILE --ready FILE
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';

const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  if (i < 0 || args[i + 1] === undefined) throw new Error(`router-stand-in: ${name} is required`);
  return args[i + 1];
};
const cluster = opt('--cluster');
const address = opt('--address');
const tls = { cert: fs.readFileSync(opt('--cert')), key: fs.readFileSync(opt('--key')) };
const ready = opt('--ready');

const answer = (scheme) => (req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end(`${cluster} router: ${scheme} ${req.headers.host ?? '-'}${req.url}\n`);
};
const listen = (server, port) =>
  new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, address, resolve);
  });
await Promise.all([
  listen(http.createServer(answer('http')), 80),
  listen(https.createServer(tls, answer('https')), 443),
]);
fs.writeFileSync(ready, '');
