import { randomBytes } from 'node:crypto';

/**
 * Public identifiers are `<prefix>_<26 Crockford base32 characters>` (the TypeID layout): the 128 bits
 * of a UUIDv7 stored in a `uuid` column. Time-ordered, so indexes stay compact and ids sort by creation.
 */
export const PREFIXES = {
  profile: 'p',
  connection: 'conn',
  account: 'acct',
  balance: 'bal',
  transaction: 'txn',
  event: 'evt',
  environment: 'env',
  apiKey: 'key',
  webhookSubscription: 'wh',
  session: 'ses',
  webhookDelivery: 'whd',
} as const;

export type Resource = keyof typeof PREFIXES;

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const DECODE = new Map([...ALPHABET].map((char, index) => [char, index]));

/** A new UUIDv7 (RFC 9562): 48-bit millisecond timestamp, version and variant bits, random rest. */
export function uuidv7(now = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Public id of a stored uuid: `encodeId('profile', uuid)` → `p_01jd…`. */
export function encodeId(resource: Resource, uuid: string): string {
  let value = BigInt(`0x${uuid.replaceAll('-', '')}`);
  let out = '';
  for (let i = 0; i < 26; i++) {
    out = ALPHABET[Number(value & 31n)] + out;
    value >>= 5n;
  }
  return `${PREFIXES[resource]}_${out}`;
}

/** The stored uuid behind a public id, or undefined when the id is not one of this resource's. */
export function decodeId(resource: Resource, id: string): string | undefined {
  const prefix = `${PREFIXES[resource]}_`;
  if (typeof id !== 'string' || id.length !== prefix.length + 26 || !id.startsWith(prefix)) return undefined;
  const body = id.slice(prefix.length);
  if (body[0]! > '7') return undefined;
  let value = 0n;
  for (const char of body) {
    const digit = DECODE.get(char);
    if (digit === undefined) return undefined;
    value = (value << 5n) | BigInt(digit);
  }
  const hex = value.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

