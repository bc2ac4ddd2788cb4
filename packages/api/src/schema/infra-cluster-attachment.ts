// InfraClusterAttachment: attaches one HostedCluster to a shared Infra in the same namespace.
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { addressRange, intsDistinct, refs, requiredWhen } from './cel';
import type { CelRule } from './cel';
import {
  annotationMap,
  dnsLabel,
  domain,
  enumOf,
  labelMap,
  objectName,
  optionalFlag,
  port,
  text,
} from './fields';
import { conditions, observedGeneration } from './status';

const addressRangeRule = addressRange('spec.appsIngress.metallb.ipAddressPoolRange');

export const AppsIngress = Type.Object(
  {
    enabled: optionalFlag(
      'Install MetalLB inside the hosted cluster and publish *.apps through a LoadBalancer VIP on the VLAN.',
      false,
    ),
    metallb: Type.Optional(
      Type.Object(
        {
          addressPoolName: Type.Optional(
            objectName(
              'spec.appsIngress.metallb.addressPoolName',
              'MetalLB IPAddressPool name in the hosted cluster. Required when enabled.',
            ),
          ),
          ipAddressPoolRange: Type.Optional(
            Type.String({
              description:
                'Addresses of the pool, "start-end" or a CIDR, passed to MetalLB verbatim. Required when enabled; must lie inside the Infra\'s cidr and be disjoint from other attachments\' ranges, the DHCP pool and every static address.',
              maxLength: 33,
              'x-kubernetes-validations': [addressRangeRule],
            }),
          ),
          l2AdvertisementName: Type.Optional(
            objectName(
              'spec.appsIngress.metallb.l2AdvertisementName',
              'L2Advertisement name. Default: advertise-<addressPoolName>.',
            ),
          ),
        },
        { description: 'MetalLB settings for the apps VIP.' },
      ),
    ),
    service: Type.Optional(
      Type.Object(
        {
          name: Type.Optional(
            objectName('spec.appsIngress.service.name', 'LoadBalancer Service name in the hosted cluster.', {
              default: 'oooi-ingress',
            }),
          ),
          namespace: Type.Optional(
            dnsLabel('spec.appsIngress.service.namespace', 'Namespace of that Service.', {
              default: 'openshift-ingress',
            }),
          ),
          labels: Type.Optional(
            labelMap('spec.appsIngress.service.labels', 'Labels merged onto the Service each reconcile.'),
          ),
          annotations: Type.Optional(
            annotationMap(
              'spec.appsIngress.service.annotations',
              'Annotations merged onto the Service each reconcile (the MetalLB pool annotation is operator-owned).',
            ),
          ),
        },
        { description: 'The hosted-cluster LoadBalancer Service in front of the default router.' },
      ),
    ),
    ports: Type.Optional(
      Type.Object(
        {
          http: Type.Optional(port('HTTP port of the apps VIP (Envoy listener and target).', 80)),
          https: Type.Optional(port('HTTPS port of the apps VIP (Envoy listener and target).', 443)),
        },
        { description: 'Ports of the apps ingress.' },
      ),
    ),
  },
  {
    description:
      'Per-cluster apps ingress. When enabled, MetalLB ranges must be disjoint across attachments sharing a VLAN.',
  },
);

export const ExternalService = Type.Object(
  {
    enabled: optionalFlag(
      'Create the LoadBalancer Service <attachment>-proxy-external (port 443 only). false removes it.',
      false,
    ),
    addressPoolName: Type.Optional(
      text(
        'Set as annotation metallb.universe.tf/address-pool to pin a MetalLB pool. Empty: the cluster default allocation.',
      ),
    ),
    labels: Type.Optional(
      labelMap(
        'spec.externalService.labels',
        'Labels reconciled onto the Service, e.g. an ExternalDNS publish label.',
      ),
    ),
    annotations: Type.Optional(
      annotationMap(
        'spec.externalService.annotations',
        'Annotations reconciled onto the Service, e.g. external-dns.alpha.kubernetes.io/hostname: oauth.<cluster>.<domain>.',
      ),
    ),
  },
  {
    description: 'Optional per-cluster hosting-cluster LoadBalancer exposing the shared Envoy proxy on 443.',
  },
);

/** api-int.<clusterName>.<baseDomain> (the longest name oooi serves) must fit the 253-character DNS limit. */
const domainLengthRule: CelRule = {
  rule: '!has(self.clusterName) || !has(self.baseDomain) || size(self.clusterName) + size(self.baseDomain) <= 244',
  message:
    'spec.dns.baseDomain together with spec.dns.clusterName must not exceed 244 characters, so that api-int.<clusterName>.<baseDomain> fits in 253',
  fieldPath: '.baseDomain',
  check: (self) => {
    const d = self as { clusterName?: unknown; baseDomain?: unknown };
    return (
      typeof d.clusterName !== 'string' ||
      typeof d.baseDomain !== 'string' ||
      [...d.clusterName].length + [...d.baseDomain].length <= 244
    );
  },
};

const r = refs('spec');
export const attachmentSpecRules: CelRule[] = [
  requiredWhen(r('appsIngress', 'enabled'), r('appsIngress', 'metallb', 'addressPoolName')),
  requiredWhen(r('appsIngress', 'enabled'), r('appsIngress', 'metallb', 'ipAddressPoolRange')),
  intsDistinct(r('appsIngress', 'ports', 'http'), r('appsIngress', 'ports', 'https')),
];

export const InfraClusterAttachmentSpec = Type.Object(
  {
    infraRef: Type.Object(
      { name: objectName('spec.infraRef.name', 'Name of the shared Infra.', { minLength: 1 }) },
      { description: 'The shared Infra, in the same namespace as this attachment.' },
    ),
    hostedClusterRef: Type.Object(
      {
        name: objectName('spec.hostedClusterRef.name', 'HostedCluster name.', { minLength: 1 }),
        namespace: Type.Optional(
          dnsLabel(
            'spec.hostedClusterRef.namespace',
            "HostedCluster namespace. Another namespace than the attachment's only with a HostedClusterGrant there.",
            { default: 'clusters' },
          ),
        ),
      },
      {
        description:
          'The HyperShift HostedCluster to attach. One attachment per HostedCluster. One of another namespace needs a HostedClusterGrant in that namespace; without it the attachment is refused (ReferenceNotPermitted) and takes part in nothing.',
      },
    ),
    dns: Type.Object(
      {
        clusterName: dnsLabel(
          'spec.dns.clusterName',
          'First label of the cluster domain: names are <x>.<clusterName>.<baseDomain>.',
          { minLength: 1 },
        ),
        baseDomain: domain('spec.dns.baseDomain', 'Base domain, e.g. example.com.'),
      },
      {
        description: 'Builds the cluster FQDNs served on the shared DNS and proxy.',
        'x-kubernetes-validations': [domainLengthRule],
      },
    ),
    controlPlaneNamespace: Type.Optional(
      dnsLabel(
        'spec.controlPlaneNamespace',
        "Management-cluster namespace hosting this control plane: HyperShift's <hc-namespace>-<hc-name> (dots of the name as dashes), which is the default. HyperShift creates it; any other value is refused (ControlPlaneNamespaceMismatch).",
      ),
    ),
    apiServerService: Type.Optional(
      dnsLabel(
        'spec.apiServerService',
        'API Service used to build a hosted-cluster client for apps ingress. Proxy API backends always target kube-apiserver.',
        {
          default: 'kube-apiserver',
        },
      ),
    ),
    externalService: Type.Optional(ExternalService),
    appsIngress: Type.Optional(AppsIngress),
  },
  {
    description: 'One hosted cluster attached to a shared Infra.',
    'x-kubernetes-validations': attachmentSpecRules,
  },
);

export const AppsIngressStatus = Type.Object(
  {
    phase: Type.Optional(enumOf(['Pending', 'Ready', 'Degraded'] as const, 'Apps-ingress phase.')),
    reason: Type.Optional(Type.String({ description: 'Reason of the phase (CamelCase).', maxLength: 1024 })),
    message: Type.Optional(Type.String({ description: 'Details of the phase.', maxLength: 32768 })),
    externalIP: Type.Optional(
      Type.String({ description: 'VIP of the apps LoadBalancer; drives *.apps DNS records.', maxLength: 64 }),
    ),
    externalHostname: Type.Optional(
      Type.String({
        description: 'Hostname of the apps LoadBalancer when it has no IP (Envoy only, no DNS record).',
        maxLength: 253,
      }),
    ),
    lastSyncTime: Type.Optional(
      Type.String({ description: 'Last time another field of this status changed.', format: 'date-time' }),
    ),
    appliedServiceName: Type.Optional(
      Type.String({
        description: 'Service last created in the hosted cluster (for cleanup).',
        maxLength: 253,
      }),
    ),
    appliedServiceNamespace: Type.Optional(Type.String({ description: 'Its namespace.', maxLength: 63 })),
    appliedAddressPoolName: Type.Optional(
      Type.String({ description: 'IPAddressPool last created (for cleanup).', maxLength: 253 }),
    ),
    appliedL2AdvertisementName: Type.Optional(
      Type.String({ description: 'L2Advertisement last created (for cleanup).', maxLength: 253 }),
    ),
  },
  { description: 'Apps-ingress state scoped to this cluster.' },
);

export const ExternalServiceStatus = Type.Object(
  {
    serviceName: Type.Optional(
      Type.String({
        description: 'The LoadBalancer Service <attachment>-proxy-external in the Infra namespace.',
        maxLength: 63,
      }),
    ),
    externalIP: Type.Optional(
      Type.String({
        description: 'Its external address (status.loadBalancer.ingress[0].ip).',
        maxLength: 64,
      }),
    ),
    externalHostname: Type.Optional(
      Type.String({
        description: 'Its external host name, when the load balancer gives a name instead of an address.',
        maxLength: 253,
      }),
    ),
  },
  { description: 'The external LoadBalancer Service of spec.externalService, while it is enabled.' },
);

export const InfraClusterAttachmentStatus = Type.Object(
  {
    conditions: conditions(
      'Ready reflects aggregation plus apps-ingress state; Aggregated=False names the conflict and the other object.',
    ),
    observedGeneration,
    domain: Type.Optional(
      Type.String({ description: 'Resolved <clusterName>.<baseDomain>.', maxLength: 253 }),
    ),
    controlPlaneNamespace: Type.Optional(
      Type.String({ description: 'Resolved control-plane namespace.', maxLength: 63 }),
    ),
    appsIngressStatus: Type.Optional(AppsIngressStatus),
    externalServiceStatus: Type.Optional(ExternalServiceStatus),
  },
  { description: 'Observed state, written by the controller.' },
);

export type InfraClusterAttachmentSpec = Static<typeof InfraClusterAttachmentSpec>;
export type InfraClusterAttachmentStatus = Static<typeof InfraClusterAttachmentStatus>;
