import type { Config } from '../config.ts';
import type { ProviderFactory } from './directory.ts';
import { enableBankingFactory } from './enablebanking/enablebanking-factory.ts';
import { plaidFactory } from './plaid/plaid-factory.ts';
import { simplefinFactory } from './simplefin/simplefin-factory.ts';

/** Every upstream an operator can configure per environment (`npm run cli -- providers set`). */
export function providerFactories(config: Pick<Config, 'plaidLinkScriptUrl' | 'providerCaFile'>): ProviderFactory[] {
  return [
    plaidFactory({ linkScriptUrl: config.plaidLinkScriptUrl, caFile: config.providerCaFile }),
    simplefinFactory({ caFile: config.providerCaFile }),
    enableBankingFactory({ caFile: config.providerCaFile }),
  ];
}
