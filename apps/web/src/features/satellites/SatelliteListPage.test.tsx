import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import SatelliteListPage, { NO_FILTER_MATCH } from './SatelliteListPage';
import { mockFetch } from '../../../test/fetchMock';
import { renderWithApp } from '../../../test/render';
import { CATALOGUE, catalogueRoutes } from '../../../test/fixtures/satellites';

async function shownNames(): Promise<string[]> {
  const cards = await screen.findAllByRole('article');
  return cards.map((card) => within(card).getByRole('heading').textContent ?? '').sort();
}

describe('satellite card lists', () => {
  it('Active shows only Supported satellites by default', async () => {
    mockFetch(catalogueRoutes(CATALOGUE));
    renderWithApp(<SatelliteListPage list="active" />);
    expect(await shownNames()).toEqual(['FossaSat-2E11', 'GreenCube', 'Norby', 'SplitSat']);
  });

  it('FSK keeps only satellites with an FSK configuration in the 433 band', async () => {
    mockFetch(catalogueRoutes(CATALOGUE));
    renderWithApp(<SatelliteListPage list="fsk" />);
    expect(await shownNames()).toEqual(['GreenCube']);
  });

  it('Future lists Future and Experimental satellites with their launch date', async () => {
    mockFetch(catalogueRoutes(CATALOGUE));
    renderWithApp(<SatelliteListPage list="future" />);
    expect(await shownNames()).toEqual(['LabSat', 'NextSat']);
    expect(screen.getAllByText(/Launch date:/)).toHaveLength(2);
  });

  it('Balloons lists the flying and the retired balloons but not BFuture', async () => {
    const calls = mockFetch(catalogueRoutes(CATALOGUE));
    renderWithApp(<SatelliteListPage list="balloons" />);
    expect(await shownNames()).toEqual(['OldBalloon', 'UpBalloon']);
    // /v1/satellites leaves the retired out: the retired balloons have their own list.
    expect(calls.map((c) => c.url)).toContain('/v1/satellites?status=BInactive');
    expect(screen.getByRole('link', { name: /OldBalloon/ })).toHaveAttribute(
      'href',
      '/satelliteIna/OldBalloon',
    );
    expect(screen.getByRole('link', { name: /UpBalloon/ })).toHaveAttribute(
      'href',
      '/satellite/UpBalloon',
    );
  });

  it('Inactive lists the retired satellites of /v1/satellitesIna', async () => {
    mockFetch(
      catalogueRoutes([
        ...CATALOGUE,
        { ...CATALOGUE[0]!, name: 'Gone', displayName: 'Gone', status: 'Inactive' },
      ]),
    );
    renderWithApp(<SatelliteListPage list="inactive" />);
    expect(await shownNames()).toEqual(['Gone']);
    expect(screen.getByRole('link', { name: /Gone/ })).toHaveAttribute(
      'href',
      '/satelliteIna/Gone',
    );
  });

  it('cards show counters, mode@freq chips and the status chip', async () => {
    mockFetch(catalogueRoutes(CATALOGUE));
    renderWithApp(<SatelliteListPage list="fsk" />);
    const [card] = await screen.findAllByRole('article');
    if (!card) throw new Error('no card');
    expect(within(card).getByText('FSK@435.31')).toBeInTheDocument();
    expect(within(card).getByText('Supported')).toBeInTheDocument();
    expect(within(card).getByText('100 packets')).toBeInTheDocument();
    expect(within(card).getByText('120 frames')).toBeInTheDocument();
  });

  it('the user can change status, band and mode filters', async () => {
    const user = userEvent.setup();
    mockFetch(catalogueRoutes(CATALOGUE));
    renderWithApp(<SatelliteListPage list="active" />);
    await shownNames();

    await user.selectOptions(screen.getByLabelText('Mode'), 'FSK');
    expect(await shownNames()).toEqual(['GreenCube', 'SplitSat']);

    await user.selectOptions(screen.getByLabelText('Band'), '433');
    expect(await shownNames()).toEqual(['GreenCube']);

    await user.selectOptions(screen.getByLabelText('Band'), '137');
    expect(screen.getByText(NO_FILTER_MATCH)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Reset filters' }));
    await user.click(screen.getByRole('button', { name: 'Balloon' }));
    expect(await shownNames()).toEqual([
      'FossaSat-2E11',
      'GreenCube',
      'Norby',
      'SplitSat',
      'UpBalloon',
    ]);
  });

  it('a failed load is logged and shows an empty list', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockFetch({
      '/v1/satellites': { status: 500, body: { error: 'boom' } },
      '/v1/satellitesIna': { status: 500, body: { error: 'boom' } },
      '/v1/satellites?status=BInactive': { status: 500, body: { error: 'boom' } },
    });
    renderWithApp(<SatelliteListPage list="active" />);
    expect(await screen.findByText(NO_FILTER_MATCH)).toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
    expect(warn).toHaveBeenCalled();
  });
});
