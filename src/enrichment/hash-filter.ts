/**
 * A set of strings that answers "certainly not" without making or hashing a string: text is hashed
 * in place, character by character (a run of several words can be hashed on from where the previous
 * word ended), and looked up in a table of bits. "Maybe" is wrong for about one string in thirty;
 * the caller then looks the string up in its real map. The pipeline's lookups in maps of thousands
 * of strings, most of them for words that are in none, were its largest cost.
 */

/** FNV-1a's offset basis: the hash of no characters. */
export const EMPTY_HASH = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** Bits per string held: the share of false "maybe" is about 1 in this many. */
const BITS_PER_STRING = 32;

/** The hash of `text` from `from` to `to`, continued from `hash` (the hash of what came before: EMPTY_HASH for nothing). */
export function hashOf(text: string, from = 0, to = text.length, hash = EMPTY_HASH): number {
  let result = hash;
  for (let at = from; at < to; at++) result = Math.imul(result ^ text.charCodeAt(at), FNV_PRIME);
  return result >>> 0;
}

export class HashFilter {
  readonly #bits: Uint32Array;
  readonly #mask: number;

  constructor(strings: Iterable<string>) {
    const hashes = [...strings].map((each) => hashOf(each));
    let size = 1 << 10;
    while (size < hashes.length * BITS_PER_STRING) size *= 2;
    this.#bits = new Uint32Array(size / 32);
    this.#mask = size - 1;
    for (const hash of hashes) this.#bits[(hash & this.#mask) >>> 5]! |= 1 << (hash & 31);
  }

  /** False when no string held has this hash (hashOf): then certainly none is the one hashed. */
  mayHold(hash: number): boolean {
    return (this.#bits[(hash & this.#mask) >>> 5]! & (1 << (hash & 31))) !== 0;
  }
}
