// The kinds the DNSServer controller reads and writes (the runtime is told them; it never discovers them), all
// described once in workload/kinds.ts.
export {
  ConfigMapKind,
  DeploymentKind,
  DnsServerKind,
  NetworkPolicyKind,
  RoleBindingKind,
  RoleKind,
  ServiceAccountKind,
  ServiceKind,
} from '../../workload/kinds';
