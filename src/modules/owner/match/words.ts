/**
 * The words of a name or an address as they are compared: accents and case dropped (`ß` read as
 * `ss`), every character but letters and digits a separator. `O'Brien` is one word, `Sp. z o.o.`
 * four.
 */
export function wordsOf(text: string | null | undefined): string[] {
  if (!text) return [];
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/['’]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/** The share of words the two lists have in common (Jaccard index of their sets), from 0 to 1. */
export function sharedWords(a: readonly string[], b: readonly string[]): number {
  const left = new Set(a);
  const right = new Set(b);
  const union = new Set([...left, ...right]).size;
  if (union === 0) return 0;
  return [...left].filter((word) => right.has(word)).length / union;
}

/** Whether two words differ by one typing slip: one letter added, left out or changed, or two neighbours swapped. */
export function oneSlipApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  if (a.length === b.length) {
    const differing = [...a].flatMap((letter, index) => (letter === b[index] ? [] : [index]));
    if (differing.length === 1) return true;
    const [first, second] = differing;
    return differing.length === 2 && second === first! + 1 && a[first!] === b[second] && a[second] === b[first!];
  }
  const [longer, shorter] = a.length > b.length ? [a, b] : [b, a];
  for (let index = 0; index < longer.length; index++) {
    if (longer.slice(0, index) + longer.slice(index + 1) === shorter) return true;
  }
  return false;
}
