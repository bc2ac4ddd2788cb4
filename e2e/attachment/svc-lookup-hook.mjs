// FOR TESTS ONLY, loaded into a spawned oooi-controller process with NODE_OPTIONS=--import: this machine cannot
// resolve `<service>.<namespace>.svc.cluster.local`, the address the controller dials for a hosted cluster's API,
// so every such name resolves to 127.0.0.1 (where the test's hosted apiserver listens). TLS is untouched: the
// certificate is still verified against the kubeconfig's host. The in-process tests pass the same resolver as the
// `hostedClusterLookupForTests` option instead (hosted.ts).
import dns from 'node:dns';

const system = dns.lookup;
dns.lookup = function lookup(hostname, options, callback) {
  const cb = typeof options === 'function' ? options : callback;
  const opts =
    typeof options === 'function' ? {} : typeof options === 'number' ? { family: options } : options;
  if (typeof hostname !== 'string' || !hostname.endsWith('.svc.cluster.local')) {
    return system.call(dns, hostname, options, callback);
  }
  if (opts?.all) process.nextTick(cb, null, [{ address: '127.0.0.1', family: 4 }]);
  else process.nextTick(cb, null, '127.0.0.1', 4);
  return undefined;
};
