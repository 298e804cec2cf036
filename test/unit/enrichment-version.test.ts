import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ENRICHMENT_VERSION } from '../../src/enrichment/pipeline.ts';

/**
 * Every version of the pipeline, with the fingerprint of src/enrichment/ it was (code and data,
 * the version's own line left out). Append a line when you bump ENRICHMENT_VERSION; never edit one:
 * stored enrichments of a version are redone only when the version changes.
 */
const RELEASED: ReadonlyArray<readonly [version: number, fingerprint: string]> = [
  [1, '10b8887fcc04cbf22037702b2e16db80323a275c338ee145957c8544be9551da'],
  [2, 'e1de4b4559067a50a0742cc6467489498bd03f6bbb78da87923402a7bb7176ef'],
  [3, '8681e6582983217a6249369c4858c4332832881c282c03f518efb9a898b58e53'],
  [4, '7ca860275021d30ce02709e0f2ad34824bdd5bf3030e5b0d5869023739d9e174'],
  [5, '39b6d725799497e4f67501b0dd81f3f18c0b5879e76c20cae425037c0e401d5d'],
  [6, '3c36f97f375ddd7bd4ce0b5ab27a1524cc6a2c842c1979b7406014f5cc71b165'],
  [7, '7f7fc22bfaf59fec78b8005f7d4daca3298d87285c22b3a5a319c871bdc0524b'],
  [8, 'e7a21f0b8c67395a7e368510cad0aab9f7be1b8c0f579fceac261ee516b14696'],
  [9, '8846adc76afa84d4e570ced5ff03b83edd2afbc492c878514f7a53d276d0b72e'],
  [10, '419ead3e75f3edb167ce7213e3eccc21a6c07dbcededa916830924a211876cd5'],
  [11, 'fe6e2750cb36c0474b7a1eb5e07aa2b5444e8e6586488292dc8e42fcff424ea4'],
  [12, '78795a126fdf0679cdf695561f6d0681414127765f04a891c2b128dda494a119'],
  [13, 'bb4c30ee44934eea45fc561e3e507a558c0478b0f008bce9dec9501f4d94e9da'],
  [14, '084f82498bfc2c1cd29d6b3989192a5bcf29fd0034c908f1734e5f7e05c81cd9'],
  [15, '6cc93031dd3ea5866eb113d6dfe10ce167b2d5736f5872553735866ed9c595a5'],
  [16, '314705fe32b6b5e89c9b6a44fa52727346d35fb56d09a5bd86db94cf67921b0b'],
  [17, 'd9dbfbe8ac1f04e3dcab80e2070f5b4feb71c216e99945a359e30e8cdcaa5c61'],
  [18, 'afad9cf38b55e431a51c84363b4d5f829b15ba75c2c955ac3bf8c775b631cd77'],
  [19, '20f1042bccd0236bb50915cca6da11bdc6b5fda3bc8b1f3dfee6e3460d1cedb9'],
  [20, 'c898024ecae79d97ced12dd0613121b8824fe149e0d16fbd4363b8038e8922a5'],
  [21, '5259a820b70c157aa1fe5260226c02fb0601851bc8166240d9b0863e4f96a944'],
  [22, '99b2635ee082ceef21fb59594b89bcbdfdc3b6d21e3b76498d37ff70d646b566'],
  [23, 'fe54d274f9423b21d92f86fb0988ee154b4e7a9fb2647f1ce3ffb1e5a470d02c'],
  [24, '9ee320fe9dea0085ba9ca5f19822b01bc24cfaebfbbfa8491207301f859bfc5a'],
  [25, '5620184ec320f828e7853b2f3de6478a2f76dd3e68bb3669398d4a317c1f5a36'],
];

it('changes ENRICHMENT_VERSION whenever the pipeline’s code or data changes', () => {
  const fingerprint = fingerprintOf('src/enrichment');
  const [latest, recorded] = RELEASED.at(-1)!;
  expect(RELEASED.map(([version]) => version)).toEqual(RELEASED.map((_, index) => index + 1));
  expect(ENRICHMENT_VERSION, 'ENRICHMENT_VERSION is the latest released version').toBe(latest);
  expect(fingerprint, `src/enrichment/ changed: bump ENRICHMENT_VERSION to ${latest + 1} and append [${latest + 1}, '${fingerprint}'] to RELEASED`).toBe(recorded);
});

function fingerprintOf(folder: string): string {
  const hash = createHash('sha256');
  const files = readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
  for (const file of files) {
    const text = readFileSync(file, 'utf8').replace(/^export const ENRICHMENT_VERSION = \d+;$/m, '');
    hash.update(`${path.relative(folder, file)}\0${text}\0`);
  }
  return hash.digest('hex');
}
