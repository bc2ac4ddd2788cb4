// The hot-standby pair for tests: the standalone example with a standby address (.6, outside its pool .20-.120).
import type { DHCPServer } from '@oooi/api';
import { exampleDhcpServer } from './fixtures';

export const STANDBY_IP = '198.51.100.6';

/** examples/dhcpserver.yaml with spec.networkConfig.standbyServerIP (and SPEC's other top-level fields). */
export function pairDhcpServer(spec: Parameters<typeof exampleDhcpServer>[0] = {}): DHCPServer {
  const d = exampleDhcpServer(spec);
  return {
    ...d,
    spec: { ...d.spec, networkConfig: { ...d.spec.networkConfig, standbyServerIP: STANDBY_IP } },
  };
}
