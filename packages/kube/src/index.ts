// @oooi/kube — the small controller runtime every oooi process stands on. See README.md.
export { backoffDelay, KeyedBackoff, type BackoffPolicy } from './backoff';
export {
  kubeTime,
  microTime,
  sleep,
  systemClock,
  systemRandom,
  type Clock,
  type Random,
  type TimerHandle,
} from './clock';
export {
  apiVersionOf,
  controllerOf,
  controllerReference,
  kindLabel,
  objectKey,
  parseRequestKey,
  refersToKind,
  requestFor,
  requestKey,
  resourcePath,
  type KindDescriptor,
  type Request,
  type ResourcePathOptions,
} from './kinds';
export {
  deepFreeze,
  type Condition,
  type KubeObject,
  type ManagedFieldsEntry,
  type ObjectMeta,
  type OwnerReference,
} from './object';
export {
  KubeMetrics,
  reconcileResults,
  type KubeMetricsOptions,
  type ReconcileResultLabel,
  type WatchRestartReason,
} from './metrics';
export {
  ApiError,
  isApiError,
  type HttpMethod,
  type QueryParams,
  type RestClient,
  type RestObserver,
  type RestRequest,
  type Status,
  type StatusCause,
  type WatchEvent,
  type WatchEventType,
  type WatchHandle,
  type WatchRequest,
} from './rest/rest';
export { KubeConfigRest, loadKubeConfig, type KubeConfigRestOptions } from './rest/kubeconfig-rest';
export { loadKubeConfigText, type KubeConfigTextOptions } from './rest/kubeconfig-text';
export {
  defaultBurst,
  defaultQps,
  parseRetryAfter,
  RequestThrottle,
  type ThrottleOptions,
} from './rest/throttle';
export { IndexedStore, IndexNamespace, IndexOwner, type Indexer, type StoreDelta } from './cache/store';
export {
  controllerReferences,
  isControlledBy,
  type Owned,
  type OwnerIdentity,
} from './ownership/owner-references';
export {
  applyChild,
  applyOwnedChildren,
  rejectionOf,
  type ApplyChildOptions,
  type ApplyOwnedChildrenOptions,
  type ChildApplyOutcome,
  type ChildStep,
  type ObjectReader,
  type OwnedChildrenOutcome,
  type Rejection,
} from './ownership/owned-children';
export {
  applyOwnerPass,
  childrenAsTheyAre,
  syncChildren,
  type ChildRef,
  type ChildrenPass,
  type OwnerPassOptions,
  type SyncChildrenOptions,
} from './ownership/children-pass';
export {
  applyOwnerStatus,
  readyEvents,
  type ApplyOwnerStatusOptions,
  type EventProblem,
} from './ownership/owner-status';
export {
  CacheSyncTimeoutError,
  ListWatchCache,
  stripManagedFields,
  type CacheTransform,
  type EventHandler,
  type ListWatchCacheOptions,
} from './cache/list-watch-cache';
export type { ReflectorStats } from './cache/reflector';
export { WorkQueue, type WorkQueueOptions } from './queue/work-queue';
export {
  defaultControllerRateLimiter,
  ItemExponentialRateLimiter,
  MaxOfRateLimiter,
  TokenBucketRateLimiter,
  type ControllerRateLimiterOptions,
  type RateLimiter,
  type TokenBucketOptions,
} from './queue/rate-limiter';
export {
  isTerminalError,
  TerminalError,
  type ReconcileContext,
  type Reconciler,
  type ReconcileResult,
} from './controller/reconcile';
export {
  and,
  annotationsChanged,
  deletionTimestampSet,
  generationChanged,
  labelsChanged,
  not,
  or,
} from './controller/predicates';
export {
  dedupeRequests,
  requestsForMap,
  requestsForObject,
  requestsForOwner,
  type MapFn,
  type ObjectEvent,
  type Predicate,
} from './controller/handlers';
export {
  ControllerBuilder,
  type CacheProvider,
  type CacheScope,
  type ControllerDeps,
  type ControllerOptions,
  type WatchOptions,
} from './controller/builder';
export { Controller, ReconcileTimeoutError, type WatchSource } from './controller/controller';
export {
  conditionChanged,
  findCondition,
  isConditionTrue,
  removeCondition,
  setCondition,
  type ConditionUpdate,
} from './write/conditions';
export { canonicalJson, isSubset } from './write/canonical';
export {
  addFinalizer,
  hasFinalizer,
  removeFinalizer,
  type FinalizerOutcome,
  type FinalizerRequest,
} from './write/finalizers';
export { ApplyMemo, type AppliedWrite, type SkipVerdict } from './write/apply-memo';
export { mapLimited } from './write/limited';
export {
  StatusReporter,
  statusWriteResults,
  type OwnedCondition,
  type OwnedStatus,
  type StatusReporterOptions,
  type StatusWriteResult,
} from './write/status-reporter';
export { ApplyConflictError, parseConflict, type ConflictTarget } from './write/conflict';
export {
  ApplyPatchContentType,
  KubeClient,
  MergePatchContentType,
  type ApplyOptions,
  type ApplyOutcome,
  type KubeClientOptions,
  type ListOptions,
  type ObjectRef,
  type WriteVerb,
} from './write/client';
export {
  EventKind,
  EventRecorder,
  referenceTo,
  type EventInput,
  type EventRecorderOptions,
  type ObjectReference,
} from './events/recorder';
export {
  LeaseElector,
  LeaseKind,
  type LeaseElectorOptions,
  type LeaseSpec,
  type StoppedLeading,
} from './leader/lease-elector';
export { HealthServer, type HealthCheck, type HealthServerOptions } from './server/health-server';
export {
  Manager,
  type CacheDefaults,
  type LeaderElectionOptions,
  type ManagerOptions,
  type Runnable,
  type RunnableOptions,
} from './manager';
