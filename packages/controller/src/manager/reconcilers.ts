// The reconcilers this process runs, in one small list: wire.ts registers each entry with the manager before it
// starts. A new reconciler adds one entry (its setup declares its watches and caches and builds it).
import { dhcpServerPermissions, setupDhcpServerController } from '../dhcp';
import { dnsServerPermissions, setupDnsServerController } from '../dns';
import { proxyServerPermissions, setupProxyServerController } from '../proxy';
import { setupAttachmentController } from '../attachment';
import { setupInfraController } from '../infra';
import type { ReconcilerEntry } from './setup';

export const reconcilers: readonly ReconcilerEntry[] = [
  { name: 'infra', setup: setupInfraController },
  { name: 'infraclusterattachment', setup: setupAttachmentController },
  { name: 'dnsserver', setup: setupDnsServerController, permissions: dnsServerPermissions },
  { name: 'dhcpserver', setup: setupDhcpServerController, permissions: dhcpServerPermissions },
  { name: 'proxyserver', setup: setupProxyServerController, permissions: proxyServerPermissions },
];
