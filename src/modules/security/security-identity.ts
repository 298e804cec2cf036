import type { ProviderSecurity } from '../../providers/provider-investments.ts';

/**
 * What makes two reports the same instrument, for every profile and provider: its ISIN, else its
 * CUSIP, else its ticker symbol with its type and currency, else the provider's own id of it
 * (docs/decisions/investments-security-identity.md).
 */
export function securityIdentity(provider: string, security: ProviderSecurity): string {
  const isin = security.isin?.trim().toUpperCase();
  if (isin) return `isin:${isin}`;
  const cusip = security.cusip?.trim().toUpperCase();
  if (cusip) return `cusip:${cusip}`;
  const ticker = security.tickerSymbol?.trim().toUpperCase();
  if (ticker) return `ticker:${ticker}:${security.type}:${security.currencyCode.toUpperCase()}`;
  return `${provider}:${security.remoteId}`;
}
