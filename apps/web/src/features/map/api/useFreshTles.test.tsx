import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/preact';
import type { ReactElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../../test/fetchMock';
import { testQueryClient } from '../../../../test/render';
import { useFreshTles } from './useFreshTles';
import type { WorldData } from './useWorldData';

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

const DATA: WorldData = {
  satellites: [
    { name: 'Norbi', displayName: 'Norby', lat: 0, lng: 0, tleMissing: false },
    { name: 'Gone', displayName: 'Gone', lat: null, lng: null, tleMissing: true },
  ],
  tles: [OLD, null],
  stations: [],
};

function Wrapper({ children }: { children: ReactElement }) {
  return <QueryClientProvider client={testQueryClient()}>{children}</QueryClientProvider>;
}
// Preact's Testing Library types its wrapper as a component of Preact's own JSX types.
const wrapper = Wrapper as unknown as NonNullable<Parameters<typeof renderHook>[1]>['wrapper'];

describe('useFreshTles', () => {
  it('moves an open map to the element sets the server serves now, and ignores a broken answer', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    let served = '';
    const calls = mockFetch({ '/v1/tles.txt': () => ({ body: served }) });
    const { result, rerender } = renderHook(
      ({ data }: { data: WorldData | null }) => useFreshTles(data, 40),
      { wrapper, initialProps: { data: null as WorldData | null } },
    );
    // No map drawn yet: nothing to refresh.
    expect(result.current).toEqual([]);
    await new Promise((r) => setTimeout(r, 120));
    expect(calls).toHaveLength(0);

    rerender({ data: DATA });
    // The map was just drawn with these sets: the first reload waits one interval.
    expect(calls).toHaveLength(0);
    expect(result.current).toBe(DATA.tles);

    // An empty answer (a failed refresh, a proxy error page) keeps what the map has.
    await waitFor(() => expect(calls.length).toBeGreaterThanOrEqual(2));
    expect(result.current).toBe(DATA.tles);

    served = text(NEW);
    await waitFor(() => expect(result.current).toEqual([NEW, null]));

    // A later broken answer keeps the newer sets, not the first ones.
    served = 'Norbi\n<html>502 Bad Gateway</html>\n';
    const before = calls.length;
    await waitFor(() => expect(calls.length).toBeGreaterThanOrEqual(before + 2));
    expect(result.current).toEqual([NEW, null]);
  });
});
