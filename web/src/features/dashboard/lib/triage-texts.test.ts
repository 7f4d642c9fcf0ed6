import { describe, expect, it } from 'vitest';
import { bulkSummary } from './bulk-summary.ts';
import { keyRefusal } from './key-refusal.ts';
import { readView } from './dashboard-view.ts';

describe('triage texts (issue 32)', () => {
  it('sums up a bulk change, counting what was already done as done', () => {
    const cases: Array<[Parameters<typeof bulkSummary>, string]> = [
      [['acknowledge', 3, 0], '3 alerts acknowledged.'],
      [['acknowledge', 1, 0], '1 alert acknowledged.'],
      [['acknowledge', 2, 1], '2 alerts acknowledged; 1 already acknowledged.'],
      [['acknowledge', 1, 2], '1 alert acknowledged; 2 already acknowledged.'],
      [['acknowledge', 0, 1], '1 alert already acknowledged.'],
      [['resolve', 0, 2], '2 alerts already resolved.'],
      [['assign', 2, 0], '2 alerts assigned.'],
    ];
    for (const [args, text] of cases) expect(bulkSummary(...args), args.join()).toBe(text);
  });

  it('says why a key does nothing on an alert', () => {
    const cases: Array<[Parameters<typeof keyRefusal>, string]> = [
      [['acknowledge', 'acknowledged'], 'Already acknowledged'],
      [['acknowledge', 'in_progress'], 'Already acknowledged'],
      [['acknowledge', 'resolved'], 'Resolved alerts cannot be acknowledged'],
      [['acknowledge', 'closed'], 'Closed alerts cannot be acknowledged'],
      [['resolve', 'resolved'], 'Already resolved'],
      [['resolve', 'closed'], 'Closed alerts cannot be resolved'],
      [['resolve', undefined], 'This alert cannot be resolved now.'],
      [['acknowledge', 'new'], 'This alert cannot be acknowledged now.'],
    ];
    for (const [args, text] of cases) expect(keyRefusal(...args), args.join()).toBe(text);
  });

  it('reads the stored view: compact unless table or roomy was chosen', () => {
    expect(readView(undefined)).toBe('compact');
    expect(readView('"table"')).toBe('table');
    expect(readView('"roomy"')).toBe('roomy');
    expect(readView('"compact"')).toBe('compact');
    // What every visitor had stored before there were three views, and anything unreadable.
    expect(readView('"cards"')).toBe('compact');
    expect(readView('not json')).toBe('compact');
    expect(readView('42')).toBe('compact');
  });
});
