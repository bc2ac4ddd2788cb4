// The operator's default images (docs/architecture.md, "Images"): an empty image field on the Infra (or on a DHCPServer, DNSServer, ProxyServer) means these. They are
// the controller's flag defaults and `oooi render`'s; the Helm chart overrides them per install.

export interface DefaultImages {
  /** oooi-dhcp for an Infra's DHCPServer child (the Infra writes it into the child's spec.image). */
  readonly dhcp: string;
  /** oooi-dhcp for a DHCPServer whose spec.image is empty (a standalone one). */
  readonly dhcpServer: string;
  /** Upstream CoreDNS with the view plugin. */
  readonly dns: string;
  /** Upstream Envoy. */
  readonly proxy: string;
  /** oooi-xds, the Envoy sidecar. */
  readonly xds: string;
  /** The operator's own image: `oooi-controller config-sync`, the CoreDNS pod's sidecar (the chart sets its image). */
  readonly configSync: string;
}

export const builtinImages: DefaultImages = {
  dhcp: 'oooi-dhcp:0.1.0',
  dhcpServer: 'oooi-dhcp:0.1.0',
  dns: 'coredns/coredns:1.14.7',
  proxy: 'envoyproxy/envoy:v1.36.4',
  xds: 'oooi-xds:0.1.0',
  configSync: 'oooi-controller:0.1.0',
};
