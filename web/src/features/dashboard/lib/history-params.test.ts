import { describe, expect, it } from 'vitest';
import { historyApiQuery, rangeBounds, rangeInOrder, readHistoryView } from './history-params.ts';

// Custom ranges are calendar days of the viewer's zone: Berlin has a 23-hour day on 30 March 2025.
process.env.TZ = 'Europe/Berlin';

const view = (query: string) => readHistoryView(new URLSearchParams(query));

describe('the history view in the address', () => {
  it('reads every filter, and falls back to the defaults for what it does not know', () => {
    expect(view('status=closed&priority=high&clientId=c1&q=%20disk%20&range=custom&from=2025-03-01&to=2025-03-31&page=3')).toEqual({
      status: 'closed',
      priority: 'high',
      clientId: 'c1',
      q: 'disk',
      range: 'custom',
      from: '2025-03-01',
      to: '2025-03-31',
      page: 3,
    });
    expect(view('status=new&priority=urgent&range=90d&from=2025-03-01&page=0')).toEqual({ status: 'all', priority: 'all', clientId: undefined, q: undefined, range: 'all', from: undefined, to: undefined, page: 1 });
    // Days only with a custom range, and only real days.
    expect(view('range=7d&from=2025-03-01').from).toBeUndefined();
    expect(view('range=custom&from=2025-02-30&to=tomorrow')).toMatchObject({ from: undefined, to: undefined });
  });

  it('turns a preset into the moment that long before now, and custom days into the viewer’s midnights', () => {
    const now = Date.parse('2025-06-15T12:00:00.000Z');
    expect(rangeBounds({ range: 'all' }, now)).toEqual({});
    expect(rangeBounds({ range: '24h' }, now)).toEqual({ from: '2025-06-14T12:00:00.000Z' });
    expect(rangeBounds({ range: '7d' }, now)).toEqual({ from: '2025-06-08T12:00:00.000Z' });
    expect(rangeBounds({ range: '30d' }, now)).toEqual({ from: '2025-05-16T12:00:00.000Z' });
    expect(rangeBounds({ range: 'custom', from: '2025-06-01', to: '2025-06-01' }, now)).toEqual({ from: '2025-05-31T22:00:00.000Z', to: '2025-06-01T21:59:59.999Z' });
    expect(rangeBounds({ range: 'custom', from: '2025-03-30', to: '2025-03-30' }, now)).toEqual({ from: '2025-03-29T23:00:00.000Z', to: '2025-03-30T21:59:59.999Z' });
    expect(rangeBounds({ range: 'custom', to: '2025-12-31' }, now)).toEqual({ from: undefined, to: '2025-12-31T22:59:59.999Z' });
    expect(historyApiQuery(view('range=24h&status=resolved&q=x&page=4'), now)).toEqual({ status: 'resolved', priority: undefined, q: 'x', clientId: undefined, from: '2025-06-14T12:00:00.000Z' });
  });

  it('knows a range whose first day follows its last', () => {
    expect(rangeInOrder({ from: '2025-03-02', to: '2025-03-01' })).toBe(false);
    expect(rangeInOrder({ from: '2025-03-01', to: '2025-03-01' })).toBe(true);
    expect(rangeInOrder({ from: '2025-03-01' })).toBe(true);
  });
});
