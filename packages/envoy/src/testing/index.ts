// @oooi/envoy/testing — test data shared with benches: backends shaped like the Infra reconciler's.
export { attachmentBackends, manyAttachments, shuffled, type AttachmentFixture } from './fixtures';
export { REFUSED_CLASSES } from '../validate/refused-classes';
export {
  REFUSED_ADMIN_PORT,
  refusedSpec,
  type EnvoyOutcome,
  type RefusedClass,
} from '../validate/refused-class';
