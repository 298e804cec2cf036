import { describe, expect, it } from 'vitest';
import { triggerOf } from '../../src/modules/sync/sync-run.ts';

describe('what starts a sync run', () => {
  it('is what the connection says first: a claimed refresh, then the first sync of a new or repaired login', () => {
    expect(triggerOf({ status: 'SYNCED', generation: 1 }, { refresh: true, sentFor: 'SCHEDULED' })).toBe('REFRESH');
    expect(triggerOf({ status: 'INITIALIZING', generation: 1 }, { refresh: false, sentFor: 'RETRY' })).toBe('LINK');
    expect(triggerOf({ status: 'INITIALIZING', generation: 2 }, { refresh: false })).toBe('REPAIR');
  });

  it('is otherwise what the job was sent for, and the schedule when it does not say', () => {
    expect(triggerOf({ status: 'SYNCED', generation: 2 }, { refresh: false, sentFor: 'WEBHOOK' })).toBe('WEBHOOK');
    expect(triggerOf({ status: 'ERROR_PROVIDER', generation: 1 }, { refresh: false, sentFor: 'RETRY' })).toBe('RETRY');
    expect(triggerOf({ status: 'SYNCED', generation: 1 }, { refresh: false })).toBe('SCHEDULED');
  });
});
