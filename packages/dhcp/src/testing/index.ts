export { ip, testConfig, request, type RequestSpec } from './packets';
