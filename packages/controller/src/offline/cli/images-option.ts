// The default-image flags, shared by `oooi render` and `oooi-controller` so both decide the same children.
import { Option } from 'commander';
import type { Command } from 'commander';
import { builtinImages } from '../../workload/images';
import type { DefaultImages } from '../../workload/images';

export function addImageOptions(cmd: Command): Command {
  return cmd
    .addOption(
      new Option('--dhcp-image <image>', "default oooi-dhcp image of an Infra's DHCPServer").default(
        builtinImages.dhcp,
      ),
    )
    .addOption(
      new Option(
        '--dhcp-server-image <image>',
        'default oooi-dhcp image of a DHCPServer with an empty spec.image (standalone)',
      ).default(builtinImages.dhcpServer),
    )
    .addOption(new Option('--dns-image <image>', 'default CoreDNS image').default(builtinImages.dns))
    .addOption(new Option('--proxy-image <image>', 'default Envoy image').default(builtinImages.proxy))
    .addOption(new Option('--xds-image <image>', 'default oooi-xds sidecar image').default(builtinImages.xds))
    .addOption(
      new Option(
        '--keepalived-image <image>',
        "the Envoy pods' keepalived sidecar image (proxy HA mode)",
      ).default(builtinImages.keepalived),
    )
    .addOption(
      new Option(
        '--config-sync-image <image>',
        "the CoreDNS pod's config-sync sidecar image (the operator's own: oooi-controller)",
      ).default(builtinImages.configSync),
    );
}

export interface ImageFlags {
  readonly dhcpImage: string;
  readonly dhcpServerImage: string;
  readonly dnsImage: string;
  readonly proxyImage: string;
  readonly xdsImage: string;
  readonly keepalivedImage: string;
  readonly configSyncImage: string;
}

export function imagesFrom(flags: ImageFlags): DefaultImages {
  return {
    dhcp: flags.dhcpImage,
    dhcpServer: flags.dhcpServerImage,
    dns: flags.dnsImage,
    proxy: flags.proxyImage,
    xds: flags.xdsImage,
    keepalived: flags.keepalivedImage,
    configSync: flags.configSyncImage,
  };
}
