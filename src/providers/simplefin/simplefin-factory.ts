import type { ProviderFactory } from '../directory.ts';
import { RecentHoldings } from './recent-holdings.ts';
import { httpsClient } from './simplefin-client.ts';
import { SimplefinProvider } from './simplefin-provider.ts';

const BRIDGE_HOST = 'bridge.simplefin.org';

/**
 * SimpleFIN for an environment (`npm run cli -- providers set <env> simplefin [--allowed-hosts …]`):
 * no keys, since each end-user brings a Setup Token; the settings say which SimpleFIN servers a
 * token may point Tributary at (default the Bridge), so a pasted token cannot make it call others.
 */
export function simplefinFactory(options: { caFile?: string }): ProviderFactory {
  const recentHoldings = new RecentHoldings();
  return {
    name: 'simplefin',
    parseSettings(input) {
      const hosts = (input.allowedHosts ?? BRIDGE_HOST).split(',').map((host) => host.trim().toLowerCase()).filter(Boolean);
      if (hosts.length === 0 || hosts.some((host) => !/^[a-z0-9.-]+$|^\[[0-9a-f:.]+\]$/.test(host))) return { problem: '--allowed-hosts must be a comma-separated list of host names' };
      return { settings: { allowedHosts: hosts.join(',') } };
    },
    create(settings) {
      const allowedHosts = (settings.allowedHosts ?? BRIDGE_HOST).split(',');
      return new SimplefinProvider({
        http: httpsClient(options.caFile),
        allowedHosts,
        createUrl: allowedHosts.includes(BRIDGE_HOST) ? `https://${BRIDGE_HOST}/simplefin/create` : `https://${allowedHosts[0]}/simplefin/create`,
        recentHoldings,
      });
    },
  };
}
