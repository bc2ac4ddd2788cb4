// The InfraClusterAttachment (README.md): its external Service and apps ingress (pure plans), the clients of the
// hosted clusters, and the attachment reconciler with its watches, finalizer and plan memo. The one entry into
// this folder: offline/ and manager/ import from here, never a path inside.
export {
  desiredExternalService,
  externalServiceName,
  externalServiceStatus,
} from './desired/external-service';
export type { ExternalServicePlan, ExternalServiceStatus } from './desired/external-service';
export {
  attachmentStatusBody,
  attachmentStatusWithoutInfra,
  withReachProblem,
} from './desired/attachment-status';
export type { AttachmentReachStatus } from './desired/attachment-status';
export { CREATED_FOR_ANNOTATION } from './desired/apps-ingress-objects';
export { APPS_CLEANUP_FINALIZER } from './reconcile/attachment-finalizer';
export { defaultReachTimings } from './reconcile/reach-options';
export type { AttachmentReachOptions, ReachTimings } from './reconcile/reach-options';
export { ATTACHMENT_WORKERS, setupAttachmentController } from './reconcile/attachment-controller';
export type { AttachmentControllerSetup } from './reconcile/attachment-controller';
