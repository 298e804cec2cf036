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

const POOL_SIZE = 16 * 256;
let pool = Buffer.alloc(0);
let poolOffset = POOL_SIZE;

/** 16 fresh random bytes, taken from a pool refilled 4 KiB at a time (one system call per 256 ids). */
function randomSixteen(): Buffer {
  if (poolOffset >= POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    poolOffset = 0;
  }
  const bytes = Buffer.from(pool.subarray(poolOffset, poolOffset + 16));
  poolOffset += 16;
  return bytes;
}

let lastMs = 0;
let sequence = 0;

/**
 * A new UUIDv7 (RFC 9562): 48-bit millisecond timestamp, a 12-bit sequence (RFC 9562 method 1) and
 * random bits. Ids made by one process are strictly increasing, even within one millisecond, so
 * "order of recording" is simply id order.
 */
export function uuidv7(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    sequence = 0;
  } else if (++sequence > 0xfff) {
    lastMs++;
    sequence = 0;
  }
  const bytes = randomSixteen();
  bytes.writeUIntBE(lastMs, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
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

