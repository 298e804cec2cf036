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
  security: 'sec',
  holding: 'hld',
  investmentTransaction: 'itx',
  recurringStream: 'rec',
  categorizationRule: 'catr',
  connectionSync: 'sync',
  operator: 'op',
  auditEntry: 'aud',
  statement: 'stmt',
} as const;

export type Resource = keyof typeof PREFIXES;

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const DECODE = new Map([...ALPHABET].map((char, index) => [char, index]));
const HEX = '0123456789abcdef';
const ALPHABET_CODES = [...ALPHABET].map((char) => char.charCodeAt(0));
/** The 26 characters of the id being encoded (one id at a time: encoding never yields). */
const ENCODED = new Array<number>(26).fill(0);

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

/** The largest millisecond a UUIDv7 can hold (48 bits: year 10889). */
const UUIDV7_MAX_MS = 2 ** 48 - 1;

/**
 * The least (`first`) or greatest (`last`) uuid whose UUIDv7 timestamp is millisecond `ms` (clamped to
 * what 48 bits hold): every id made at that millisecond sorts between the two, so a time range is
 * also an id range.
 */
export function uuidv7Edge(ms: number, edge: 'first' | 'last'): string {
  const time = Math.min(UUIDV7_MAX_MS, Math.max(0, Math.floor(ms))).toString(16).padStart(12, '0');
  const rest = edge === 'first' ? '0000-0000-000000000000' : 'ffff-ffff-ffffffffffff';
  return `${time.slice(0, 8)}-${time.slice(8)}-${rest}`;
}

/** The millisecond a UUIDv7 was made (its 48-bit timestamp): what uuidv7Edge turns back into an id. */
export function uuidv7Ms(id: string): number {
  return Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}

/** Public id of a stored uuid: `encodeId('profile', uuid)` → `p_01jd…`. */
export function encodeId(resource: Resource, uuid: string): string {
  // 128 bits after two zero bits make 26 five-bit characters; hex digits arrive four bits at a time.
  // The characters are collected as codes and made into one string: appending them one by one built
  // a chain of 26 partial strings for every id served.
  let buffer = 0;
  let bits = 2;
  let length = 0;
  for (let i = 0; i < uuid.length; i++) {
    const code = uuid.charCodeAt(i);
    if (code === 45) continue; // '-'
    buffer = (buffer << 4) | (code <= 57 ? code - 48 : (code | 32) - 87);
    bits += 4;
    if (bits >= 5) {
      bits -= 5;
      ENCODED[length++] = ALPHABET_CODES[(buffer >> bits) & 31]!;
      buffer &= (1 << bits) - 1;
    }
  }
  return `${PREFIXES[resource]}_${String.fromCharCode(...ENCODED)}`;
}

/** The stored uuid behind a public id, or undefined when the id is not one of this resource's. */
export function decodeId(resource: Resource, id: string): string | undefined {
  const prefix = `${PREFIXES[resource]}_`;
  if (typeof id !== 'string' || id.length !== prefix.length + 26 || !id.startsWith(prefix)) return undefined;
  let hex = '';
  let buffer = 0;
  let bits = -2; // the first character carries two zero bits ahead of the 128
  for (let i = prefix.length; i < id.length; i++) {
    const digit = DECODE.get(id[i]!);
    if (digit === undefined) return undefined;
    if (bits === -2 && digit > 7) return undefined;
    buffer = (buffer << 5) | digit;
    bits += 5;
    while (bits >= 4) {
      bits -= 4;
      hex += HEX[(buffer >> bits) & 15];
      buffer &= (1 << bits) - 1;
    }
  }
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
