export { ip, testConfig, request, type RequestSpec } from './packets';
export { Xorshift, mutate } from './mutate';
