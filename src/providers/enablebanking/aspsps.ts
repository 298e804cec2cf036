import { createHash } from 'node:crypto';
import type { Institution } from '../link-flow.ts';
import type { AspspData } from './api.ts';

/** How long a country's list of banks is reused: EB adds and changes banks rarely. */
const FRESH_MS = 6 * 3600_000;
/** Lists remembered at once (one per application and country); the oldest is forgotten first. */
const MAX_LISTS = 500;

/**
 * An institution id names an ASPSP, which EB identifies by name and country: `eb_<country>_<digest
 * of the name>` stays within the 64 characters the contract allows whatever the bank's name.
 */
export function institutionIdOf(aspsp: { name: string; country: string }): string {
  return `eb_${aspsp.country}_${createHash('sha256').update(aspsp.name).digest('base64url').slice(0, 16)}`;
}

/** The country an institution id names, or null when it is not one of ours. */
export function countryOfInstitution(id: string): string | null {
  return /^eb_([A-Z]{2})_[A-Za-z0-9_-]{16}$/.exec(id)?.[1] ?? null;
}

export function toInstitution(aspsp: AspspData): Institution {
  return {
    id: institutionIdOf(aspsp),
    name: aspsp.name,
    products: ['TRANSACTIONS', 'BALANCES', 'ACCOUNT_OWNERS'],
    description: aspsp.bic ? `${aspsp.name} (${aspsp.country}, ${aspsp.bic})` : `${aspsp.name} (${aspsp.country})`,
    countries: [aspsp.country],
    logoUrl: typeof aspsp.logo === 'string' && aspsp.logo.startsWith('https://') ? aspsp.logo : null,
  };
}

/**
 * The banks of each country as `GET /aspsps?country=` reported them, kept for a few hours per
 * application (a sandbox application sees other banks than a production one), shared by the provider
 * instances the directory rebuilds every minute.
 */
export class AspspLists {
  readonly #lists = new Map<string, { at: number; aspsps: AspspData[] }>();

  async of(key: string, load: () => Promise<AspspData[]>, now = Date.now()): Promise<AspspData[]> {
    const cached = this.#lists.get(key);
    if (cached && now - cached.at < FRESH_MS) return cached.aspsps;
    const aspsps = await load();
    this.#lists.delete(key);
    this.#lists.set(key, { at: now, aspsps });
    if (this.#lists.size > MAX_LISTS) this.#lists.delete(this.#lists.keys().next().value!);
    return aspsps;
  }
}
