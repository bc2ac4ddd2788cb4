// The proxy outputs of `oooi render`: for every ProxyServer the controller would serve (the Infras' children and
// the standalone ones given), `proxy/<namespace>-<name>/envoy.yaml` — a static Envoy bootstrap holding exactly the
// listeners and clusters oooi-xds serves for the same spec (one translator, @oooi/envoy), admin on 127.0.0.1,
// node id `<namespace>/<name>`. Runnable as is with `envoy -c envoy.yaml`. A spec oooi-xds would refuse is refused
// here with the same field paths. (JSON is YAML: the file is proto3 JSON, as Envoy reads it.) Beside it, every
// workload object the ProxyServer reconciler applies, each a file of its own: ServiceAccount, the sidecar's Role and
// RoleBinding, the bootstrap ConfigMap (the ADS bootstrap the pod runs, not the static one above), the Service,
// the NetworkPolicy and the Deployment — the proxy renderer in ../proxy decides them, with the same image flags.
import type { ProxyServer } from '@oooi/api';
import { renderStaticBootstrap, translateProxyServer, validateProxyServer } from '@oooi/envoy';
import { planProxyServer } from '../../proxy';
import type { DefaultImages } from '../../workload/images';
import { namespaceOf } from '../../workload/meta';
import type { NetworkPolicyOptions } from '../../workload/network-policy';
import type { RenderedFile } from './render-infras';
import { workloadOutputs } from './workload-outputs';

export function renderProxyOutputs(
  proxyServers: readonly ProxyServer[],
  images: Pick<DefaultImages, 'proxy' | 'xds' | 'keepalived'>,
  networkPolicy: NetworkPolicyOptions,
  nodeLossTolerationSeconds?: number,
): {
  files: RenderedFile[];
  errors: string[];
} {
  return workloadOutputs(proxyServers, (proxy) => {
    const namespace = namespaceOf(proxy);
    const checked = validateProxyServer(proxy.spec ?? {});
    if (!checked.ok) return checked;
    const workload = planProxyServer(proxy, {
      defaultProxyImage: images.proxy,
      defaultXdsImage: images.xds,
      keepalivedImage: images.keepalived,
      networkPolicy,
      ...(nodeLossTolerationSeconds !== undefined ? { nodeLossTolerationSeconds } : {}),
    });
    if (!workload.ok) return workload;
    const envoy = renderStaticBootstrap(
      { id: `${namespace}/${proxy.metadata.name}` },
      translateProxyServer(checked.value),
    );
    return {
      ok: true,
      value: {
        objects: workload.value.objects,
        fileDir: `proxy/${namespace}-${proxy.metadata.name}`,
        files: { 'envoy.yaml': envoy },
      },
    };
  });
}
