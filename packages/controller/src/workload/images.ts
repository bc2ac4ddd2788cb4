// The operator's default images (docs/architecture.md, "Images"): an empty image field on the Infra means these. They are
// the controller's flag defaults and `oooi render`'s; the Helm chart overrides them per install.

export interface DefaultImages {
  /** oooi-dhcp. */
  readonly dhcp: string;
  /** Upstream CoreDNS with the view plugin. */
  readonly dns: string;
  /** Upstream Envoy. */
  readonly proxy: string;
  /** oooi-xds, the Envoy sidecar. */
  readonly xds: string;
}

export const builtinImages: DefaultImages = {
  dhcp: 'oooi-dhcp:0.1.0',
  dns: 'coredns/coredns:1.14.7',
  proxy: 'envoyproxy/envoy:v1.36.4',
  xds: 'oooi-xds:0.1.0',
};
