// The kinds the ProxyServer controller reads and writes (the runtime is told them; it never discovers them), all
// described once in workload/kinds.ts.

export {
  ConfigMapKind,
  DeploymentKind,
  NetworkPolicyKind,
  ProxyServerKind,
  RoleBindingKind,
  RoleKind,
  ServiceAccountKind,
  ServiceKind,
} from '../../workload/kinds';
