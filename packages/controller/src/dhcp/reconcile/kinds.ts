// The kinds the DHCPServer controller reads and writes (the runtime is told them; it never discovers them), all
// described once in workload/kinds.ts.

export {
  ConfigMapKind,
  DeploymentKind,
  DhcpServerKind,
  NamespaceKind,
  NetworkPolicyKind,
  PersistentVolumeClaimKind,
  RoleBindingKind,
  RoleKind,
  ServiceAccountKind,
  ServiceKind,
} from '../../workload/kinds';
