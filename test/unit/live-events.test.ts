import pino from 'pino';
import { expect, it } from 'vitest';
import type { EventEntity } from '../../src/modules/event/event.entity.ts';
import { LiveEvents, type Follower } from '../../src/modules/event/live-events.ts';

/** Events as the outbox would hold them, by id. */
const stored = new Map<string, EventEntity>(
  [
    ['e1', 'p1', 'connection.created'],
    ['e2', 'p2', 'connection.created'],
    ['e3', 'p1', 'balance.created'],
  ].map(([id, profileId, type]) => [id!, { id, profileId, type } as EventEntity]),
);

function follower(wanted: (type: string) => boolean = () => true) {
  const seen: string[] = [];
  let ended = 0;
  const it: Follower = { wants: wanted, deliver: (event) => void seen.push(event.id), end: () => void (ended += 1) };
  return { it, seen, ended: () => ended };
}

function liveEvents() {
  const loads: string[] = [];
  let losses = 0;
  const live = new LiveEvents({ load: async (id) => (loads.push(id), stored.get(id) ?? null), logger: pino({ level: 'silent' }), lost: () => void (losses += 1) });
  const settled = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { live, loads, losses: () => losses, settled };
}

it("hands each announced event to its profile's followers only, in order, loading it once and only when someone follows", async () => {
  const { live, loads, settled } = liveEvents();
  const [first, second, balancesOnly] = [follower(), follower(), follower((type) => type === 'balance.created')];
  live.follow('p1', first.it);
  live.follow('p1', second.it);
  live.follow('p1', balancesOnly.it);
  for (const payload of ['p1:e1', 'p2:e2', 'p1:e3', 'p1:missing']) live.message(payload);
  await settled();
  expect([first.seen, second.seen, balancesOnly.seen]).toEqual([['e1', 'e3'], ['e1', 'e3'], ['e3']]);
  expect(loads).toEqual(['e1', 'e3', 'missing']);
});

it('a lost feed ends every follower and, until it is back, each new one at once; then events flow again', async () => {
  const { live, losses, settled } = liveEvents();
  const before = follower();
  live.follow('p1', before.it);
  live.down();
  expect(before.ended()).toBe(1);
  expect(losses()).toBe(1);
  const during = follower();
  live.follow('p1', during.it);
  await settled();
  expect(during.ended()).toBe(1);
  live.message('p1:e1');
  live.up();
  const after = follower();
  live.follow('p1', after.it);
  live.message('p1:e1');
  await settled();
  expect([before.seen, during.seen, after.seen]).toEqual([[], [], ['e1']]);
});
