import { screen } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetchMock';
import { renderWithApp } from '../../../test/render';
import StationsPage from './StationsPage';

describe('Stations page', () => {
  it('logs a failed load and shows an empty list, without an error banner (SPEC.md section 8)', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockFetch({ '/v1/stations': { status: 500, body: { error: 'down' } } });
    renderWithApp(<StationsPage />, { route: '/stations?view=list' });
    expect(await screen.findByLabelText('Search')).toBeInTheDocument();
    expect(screen.queryByTestId('station-card')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(error).toHaveBeenCalledWith('Loading stations failed', expect.anything());
  });
});
