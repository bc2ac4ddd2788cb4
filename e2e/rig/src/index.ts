// @oooi/rig — the real-cluster rig (README.md). The CLI (cli.ts) and the e2e tests share this API.
export { rigUp, rigRestart, type Rig, type RigUpOptions } from './up';
export {
  rigDown,
  rigDownAll,
  rigStatus,
  listRuns,
  type DownResult,
  type RigStatus,
  type ComponentStatus,
} from './down';
export { rigBin, rigInstall, findBin, knownBins, installPieces, type InstallPiece } from './bins';
export { cacheDir, runDir, repoRoot, versions, parseEnvFile, parseVersions, type Versions } from './config';
export { defaultCrdDirs, readCrds } from './crds';
export { FAKE_NODE, fakeNode, portNames, type PortName } from './components';
export { componentNames, isComponentName, readState, type ComponentName, type RunState } from './state';
export {
  freePort,
  freePorts,
  ephemeralPortRange,
  parsePortRange,
  portBand,
  takenPort,
  type FreePortsOptions,
  type PortRange,
} from './ports';
export { type PickPorts } from './start';
export { isAlive, stopProcess, waitFor, run, runOk, sleep, type ProcRef, type RunResult } from './proc';
export { e2eEnv, type E2eEnv } from './jest/env';
export { e2eKubeConfig, k8s } from './jest/kube';
export { sweepStaleE2eRuns, isStaleE2eRun } from './jest/sweep';
export {
  openNetScope,
  type NetScope,
  type Netns,
  type Network,
  type NetworkOptions,
  type AttachOptions,
  type SpawnOptions,
  type TrackedProc,
} from './net/scope';
export { listNetns, netnsPrefix, nonLoopbackLinks } from './net/netns';
export { bridgeLoopbackPort, exposePort } from './net/forward';
export { startTlsServer, type TlsServerOptions } from './net/tls-server';
export { startHttpServer, type HttpServerOptions } from './net/http-server';
export {
  dig,
  dhcpLease,
  nsidOf,
  type DigAnswer,
  type DigQuery,
  type Lease,
  type LeaseRequest,
} from './net/clients';
export {
  VLAN_CIDR,
  POD_CIDR,
  ALLOWED_CIDRS,
  cidrContains,
  cidrWithin,
  checkInterfaceAddress,
  hostOf,
} from './net/addr';
export { trackedNetns, trackedPids } from './tracked';
export {
  runPod,
  type PodmanRuntime,
  type RunPodOptions,
  type RunningPod,
  type RunningContainer,
} from './pod-runner/runner';
export { rigCorednsImage, rigCorednsTag } from './pod-runner/peer-images';
export { podmanRunArgv, PODMAN_BASE_OPTS, type PodmanContainer, type PodmanMount } from './pod-runner/podman';
export {
  defaultImageMap,
  containerArgv,
  oooiEntrypoint,
  type ImageRule,
  type ImageMap,
} from './pod-runner/images';
export { planPod, rewritePaths, volumeFiles, type PathMapping } from './pod-runner/plan';
export {
  parseNetworksAnnotation,
  expandVars,
  MULTUS_ANNOTATION,
  secretSource,
  type ConfigMapLike,
  type DeploymentLike,
  type SecretLike,
} from './pod-runner/spec';
export { writeAtomicDir } from './pod-runner/atomic';
