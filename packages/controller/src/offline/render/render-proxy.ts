// The proxy outputs of `oooi render`: for every ProxyServer the controller would serve (the Infras' children and
// the standalone ones given), `proxy/<namespace>-<name>/envoy.yaml` — a static Envoy bootstrap holding exactly the
// listeners and clusters oooi-xds serves for the same spec (one translator, @oooi/envoy), admin on 127.0.0.1,
// node id `<namespace>/<name>`. Runnable as is with `envoy -c envoy.yaml`. A spec oooi-xds would refuse is refused
// here with the same field paths. (JSON is YAML: the file is proto3 JSON, as Envoy reads it.) Of the ProxyServer's
// workload objects only its NetworkPolicy is written (the proxy renderer in ../proxy decides it).
import type { ProxyServer } from '@oooi/api';
import { renderStaticBootstrap, translateProxyServer, validateProxyServer } from '@oooi/envoy';
import { renderProxyServer } from '../../proxy';
import type { DefaultImages } from '../../workload/images';
import { namespaceOf } from '../../workload/meta';
import type { NetworkPolicyOptions } from '../../workload/network-policy';
import type { RenderedFile } from './render-infras';
import { workloadOutputs } from './workload-outputs';

export function renderProxyOutputs(
  proxyServers: readonly ProxyServer[],
  images: Pick<DefaultImages, 'proxy' | 'xds'>,
  networkPolicy: NetworkPolicyOptions,
): {
  files: RenderedFile[];
  errors: string[];
} {
  return workloadOutputs(proxyServers, (proxy) => {
    const namespace = namespaceOf(proxy);
    const checked = validateProxyServer(proxy.spec ?? {});
    if (!checked.ok) return checked;
    const workload = renderProxyServer(proxy, {
      defaultProxyImage: images.proxy,
      defaultXdsImage: images.xds,
      networkPolicy,
    });
    if (!workload.ok) return workload;
    const policy = workload.value.children.networkPolicy;
    const envoy = renderStaticBootstrap(
      { id: `${namespace}/${proxy.metadata.name}` },
      translateProxyServer(checked.value),
    );
    return {
      ok: true,
      value: {
        objects: policy ? [policy] : [],
        fileDir: `proxy/${namespace}-${proxy.metadata.name}`,
        files: { 'envoy.yaml': envoy },
      },
    };
  });
}
