import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../../../test/fetchMock';
import { useFreshTles, type WorldData } from './useWorldData';

const OLD = {
  name: 'Norbi',
  line1: '1 46494U 20068J   26324.55971737  .00001177  00000-0  17129-3 0  4048',
  line2: '2 46494  97.5863  47.3466 0002966 260.2219 288.3340 15.06142784338068',
};
const NEW = {
  name: 'Norbi',
  line1: '1 46494U 20068J   26328.25981938  .00001163  00000-0  16984-3 0  9991',
  line2: '2 46494  97.5861  51.2214 0002931 262.1187  97.9721 15.06198417338665',
};
const text = (r: typeof OLD) => `${r.name}\n${r.line1}\n${r.line2}\n`;

describe('useFreshTles', () => {
  it('moves an open map to the element sets the server serves now, and ignores a broken answer', async () => {
    let served = '';
    const calls = mockFetch({ '/v1/tles.txt': () => ({ body: served }) });
    const data: WorldData = {
      satellites: [
        { name: 'Norbi', displayName: 'Norby', lat: 0, lng: 0, tleMissing: false },
        { name: 'Gone', displayName: 'Gone', lat: null, lng: null, tleMissing: true },
      ],
      tles: [OLD, null],
      stations: [],
    };
    const { result } = renderHook(() => useFreshTles(data, 40));
    expect(result.current).toEqual([OLD, null]);

    // An empty answer (a failed refresh, a proxy error page) keeps what the map has.
    await waitFor(() => expect(calls.length).toBeGreaterThanOrEqual(2));
    expect(result.current).toEqual([OLD, null]);

    served = text(NEW);
    await waitFor(() => expect(result.current).toEqual([NEW, null]));
  });
});
