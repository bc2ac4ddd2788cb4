// The operator's default images (docs/architecture.md, "Images"): an empty image field on the Infra (or on a DHCPServer, DNSServer, ProxyServer) means these. They are
// the controller's flag defaults and `oooi render`'s, and the Helm chart's values (charts/oooi/values.yaml `image.repository` and
// `childImages`, written from here by packages/controller/scripts/generate-chart.ts and drift-checked by `pnpm generate:check`).
// Every name is fully qualified: CRI-O's short-name policy refuses an unqualified name or resolves it elsewhere.

/** Where oooi's own images are published: the project's registry path, a placeholder the release process sets. */
export const OOOI_REGISTRY = 'ghcr.io/oooi-project';
/** The version of oooi's own images (the chart's appVersion; `scripts/images.sh build` tags the workspace's version). */
export const OOOI_IMAGE_VERSION = '0.1.0';
/** The operator's image repository (the chart's `image.repository`; the tag is the chart's appVersion). */
export const CONTROLLER_IMAGE_REPOSITORY = `${OOOI_REGISTRY}/oooi-controller`;

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
  /** keepalived (Dockerfile.keepalived: Debian's package, nothing else), the Envoy pods' VRRP sidecar in proxy HA mode. */
  readonly keepalived: string;
  /** The operator's own image: `oooi-controller config-sync`, the CoreDNS pod's sidecar (the chart sets its image). */
  readonly configSync: string;
}

const oooi = (name: string): string => `${OOOI_REGISTRY}/${name}:${OOOI_IMAGE_VERSION}`;

export const builtinImages: DefaultImages = {
  dhcp: oooi('oooi-dhcp'),
  dhcpServer: oooi('oooi-dhcp'),
  dns: 'docker.io/coredns/coredns:1.14.7',
  proxy: 'docker.io/envoyproxy/envoy:v1.36.4',
  xds: oooi('oooi-xds'),
  keepalived: oooi('oooi-keepalived'),
  configSync: oooi('oooi-controller'),
};
