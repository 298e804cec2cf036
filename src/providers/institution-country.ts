import { countryOfInstitution } from './enablebanking/aspsps.ts';
import { findInstitution } from './sandbox/institutions.ts';

/**
 * The country (ISO 3166 alpha-2) of a connection's institution, as far as the provider tells it:
 * Enable Banking's institution ids name the bank's country, the sandbox's banks list theirs (the
 * first is taken), Plaid and SimpleFIN are linked for US institutions only. Null when unknown.
 */
export function countryOfConnection(provider: string, institutionId: string): string | null {
  switch (provider) {
    case 'enablebanking':
      return countryOfInstitution(institutionId);
    case 'sandbox':
      return findInstitution(institutionId)?.countries[0] ?? null;
    case 'plaid':
    case 'simplefin':
      return 'US';
    default:
      return null;
  }
}
