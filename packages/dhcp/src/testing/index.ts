export { ip, testConfig, request, type RequestSpec } from './packets';
export { Xorshift, mutate } from './mutate';
export { vmiObject, vmObject, type VmiSpec } from './kubevirt-objects';
