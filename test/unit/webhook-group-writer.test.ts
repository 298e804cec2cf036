import { expect, it } from 'vitest';
import { GroupWriter } from '../../src/modules/webhook/group-writer.ts';

it('writes what comes during a write as one group after it, and alone at once when idle', async () => {
  const groups: number[][] = [];
  const writer = new GroupWriter<number>(async (items) => {
    groups.push(items);
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
  await Promise.all([0, 1, 2, 3].map((item) => writer.write(item)));
  await new Promise((resolve) => setTimeout(resolve, 50));
  await writer.write(4);
  expect(groups).toEqual([[0], [1, 2, 3], [4]]);
});

it('fails only the item whose write fails: its group is written again one item at a time', async () => {
  const written: number[] = [];
  const writer = new GroupWriter<number>(async (items) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (items.includes(13)) throw new Error('unlucky');
    written.push(...items);
  });
  const results = await Promise.allSettled([11, 12, 13, 14].map((item) => writer.write(item)));
  expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
  expect(written.sort()).toEqual([11, 12, 14]);
});
