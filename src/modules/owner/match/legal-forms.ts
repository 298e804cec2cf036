/**
 * Legal forms that end a company's name, as normalised words (`wordsOf`): a name ending in one is
 * taken for a business. US and UK (LLC, Inc, Corp, Ltd), Germany and Austria (GmbH), France, Spain,
 * Belgium, Switzerland (SA, SL), the Netherlands (BV), Italy (SpA), Poland (Sp. z o.o.), Sweden
 * (AB), Denmark and Norway (A/S, AS), Finland (Oy). Written with or without dots (`L.L.C.`, `S.A.`).
 */
const LEGAL_FORMS: readonly (readonly string[])[] = [
  ['llc'], ['l', 'l', 'c'], ['inc'], ['incorporated'], ['corp'], ['corporation'], ['ltd'], ['limited'], ['gmbh'],
  ['sa'], ['s', 'a'], ['sl'], ['s', 'l'], ['bv'], ['b', 'v'], ['spa'], ['s', 'p', 'a'], ['sp', 'z', 'o', 'o'], ['spzoo'],
  ['ab'], ['a', 's'], ['as'], ['oy'],
];

/** The name's words without the legal form it ends in, and whether it had one (then it names a business). */
export function withoutLegalForm(words: readonly string[]): { words: string[]; business: boolean } {
  for (const form of LEGAL_FORMS) {
    if (words.length > form.length && form.every((word, index) => words[words.length - form.length + index] === word)) {
      return { words: words.slice(0, words.length - form.length), business: true };
    }
  }
  return { words: [...words], business: false };
}
