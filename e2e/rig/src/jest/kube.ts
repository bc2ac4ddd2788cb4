// The Kubernetes client for e2e tests, loaded for this run's rig. Re-exported so tests outside the workspace
// packages (e2e/*) can use @kubernetes/client-node without depending on it themselves.
import * as k8s from '@kubernetes/client-node';
import { e2eEnv } from './env';

export { k8s };

/** A KubeConfig loaded from KUBECONFIG_PATH (default: this e2e run's admin kubeconfig). */
export function e2eKubeConfig(kubeconfigPath: string = e2eEnv().kubeconfig): k8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(kubeconfigPath);
  return kc;
}
