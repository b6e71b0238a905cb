import { screen, waitFor, within, configure } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { STORAGE_KEYS, type Picture, type StationOwnerView } from '@tinygs/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, type Reply } from '../../../../../test/fetchMock';
import { renderWithApp } from '../../../../../test/render';
import StationPage from '../../StationPage';
import { ownerStation } from '../../../../../test/fixtures/stations';

const PICTURE: Picture = {
  status: 1,
  size: 1000,
  origName: 'mast.jpg',
  type: 'image/jpeg',
  shortId: 'abc',
  src: '/pictures/abc.jpg',
};

/** Opens the edit view of a station of user 42 whose PUT answers `put`. */
async function openEdit(
  over: Partial<StationOwnerView>,
  put: Reply,
  extra: Record<string, Reply> = {},
) {
  const station = ownerStation(over);
  const id = station.id;
  const calls = mockFetch({
    [`/v1/station/${id}`]: (init) => (init?.method === 'PUT' ? put : { body: station }),
    [`/v1/station/${id}/statistics`]: { body: [] },
    [`/v1/packets?station=${id}`]: { body: [] },
    ...extra,
  });
  const user = userEvent.setup();
  renderWithApp(<StationPage />, { route: `/station/${id}`, path: '/station/:stationId' });
  await user.click(await screen.findByRole('button', { name: 'Edit station' }));
  expect(screen.getByRole('heading', { name: 'Edit station parameters' })).toBeInTheDocument();
  expect(screen.queryByRole('heading', { name: 'Station Console' })).toBeNull();
  return { calls, user, id };
}

const saveButton = () => screen.getByRole('button', { name: /^(Save|Error)$/ });
const description = () => screen.getByRole('textbox', { name: 'Description' });

// The edit view is a large form; driving it is slow on a 2-core machine.
vi.setConfig({ testTimeout: 20_000 });
configure({ asyncUtilTimeout: 5_000 });

describe('Edit station parameters', () => {
  beforeEach(() => {
    localStorage.setItem(STORAGE_KEYS.userId, '42');
    localStorage.setItem(STORAGE_KEYS.sessionToken, 'tok');
  });

  it('saves the form without tags and returns to the page', async () => {
    const { calls, user } = await openEdit(
      { name: 'EdSave' },
      { body: { message: 'Station saved' } },
    );
    await user.clear(description());
    await user.type(description(), 'New <b>mast</b>');
    await user.click(screen.getByRole('combobox', { name: 'Antenna' }));
    const options = screen.getAllByRole('option');
    expect(options).toHaveLength(24);
    await user.click(screen.getByRole('option', { name: 'Yagi-Uda' }));
    await user.click(screen.getByRole('switch', { name: 'Test station' }));
    await user.click(saveButton());
    expect(await screen.findByRole('heading', { name: 'Station Console' })).toBeInTheDocument();
    const put = calls.find((c) => c.init?.method === 'PUT');
    expect(JSON.parse(String(put?.init?.body))).toEqual({
      description: 'New mast',
      antenna: 'Yagi-Uda',
      antennaBand: [400, 450],
      test: true,
      autoUpdate: true,
      beta: false,
      satnogsOptOut: false,
    });
    expect(screen.getByText('New mast')).toBeInTheDocument();
  });

  it('opts the station out of SatNOGS DB forwarding and back in', async () => {
    const { calls, user } = await openEdit({ name: 'EdSatnogs' }, { body: { message: 'ok' } });
    const share = screen.getByRole('switch', { name: 'Share frames with SatNOGS DB' });
    expect(share).toBeChecked();
    await user.click(share);
    await user.click(saveButton());
    expect(await screen.findByRole('heading', { name: 'Station Console' })).toBeInTheDocument();
    const put = calls.find((c) => c.init?.method === 'PUT');
    expect(JSON.parse(String(put?.init?.body))).toMatchObject({ satnogsOptOut: true });
    await user.click(screen.getByRole('button', { name: 'Edit station' }));
    expect(screen.getByRole('switch', { name: 'Share frames with SatNOGS DB' })).not.toBeChecked();
  });

  it('limits the description to 500 characters after removing tags', async () => {
    const { user } = await openEdit({ name: 'EdDesc' }, { body: { message: 'ok' } });
    await user.clear(description());
    await user.click(description());
    await user.paste(`<i>${'a'.repeat(500)}</i>`);
    expect(screen.getByText('500/500 characters')).toBeInTheDocument();
    expect(saveButton()).toBeEnabled();
    await user.type(description(), 'b');
    expect(screen.getByText('Description must be at most 500 characters')).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
  });

  it('allows beta firmware only with auto update on', async () => {
    const { user } = await openEdit({ name: 'EdBeta', autoUpdate: false }, { body: {} });
    const beta = screen.getByRole('switch', { name: 'Beta firmware' });
    expect(beta).toBeDisabled();
    await user.click(screen.getByRole('switch', { name: 'Auto update' }));
    expect(beta).toBeEnabled();
    await user.click(beta);
    expect(beta).toBeChecked();
    await user.click(screen.getByRole('switch', { name: 'Auto update' }));
    expect(beta).toBeDisabled();
    expect(beta).not.toBeChecked();
  });

  it('starts the antenna band slider at 100-960 MHz when the station has none', async () => {
    await openEdit({ name: 'EdBand', antennaBand: [0, 0] }, { body: {} });
    expect(screen.getByText('Antenna band: 100-960 MHz')).toBeInTheDocument();
    const [low, high] = screen.getAllByRole('slider');
    expect(low).toHaveAttribute('aria-valuemin', '90');
    expect(high).toHaveAttribute('aria-valuemax', '2500');
  });

  it('shows Error on the button after a failed save and stays editable', async () => {
    const { user } = await openEdit(
      { name: 'EdFail' },
      { status: 400, body: { error: 'Invalid body: description too long' } },
    );
    await user.click(saveButton());
    expect(await screen.findByRole('button', { name: 'Error' })).toBeEnabled();
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid body: description too long');
    expect(description()).toBeEnabled();
    await user.type(description(), '!');
    expect(saveButton()).toHaveTextContent('Save');
  });

  it('asks before removing a picture, then removes it', async () => {
    const { calls, user } = await openEdit(
      { name: 'EdPic', pictures: [PICTURE] },
      { body: {} },
      { '/v1/station/EdPic@42/image/abc': { body: { message: 'Picture removed' } } },
    );
    await user.click(screen.getByRole('button', { name: 'Remove mast.jpg' }));
    const confirm = await screen.findByRole('dialog');
    expect(confirm).toHaveTextContent('Are you sure? This action cannot be undone.');
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByRole('img', { name: 'mast.jpg' })).toBeNull());
    const del = calls.find((c) => c.url === '/v1/station/EdPic@42/image/abc');
    expect(del?.init?.method).toBe('DELETE');
  });

  it('refuses pictures over 3 MB and uploads the others as the form field upload', async () => {
    const { calls, user } = await openEdit(
      { name: 'EdUp' },
      { body: {} },
      { '/v1/station/EdUp@42/image': { body: 'pic123' } },
    );
    const big = new File([new Uint8Array(3 * 1024 * 1024 + 1)], 'huge.jpg', {
      type: 'image/jpeg',
    });
    const small = new File([new Uint8Array([1, 2, 3])], 'small.jpg', { type: 'image/jpeg' });
    const input = document.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('no file input');
    await user.upload(input, [big, small]);
    expect(await screen.findByText('huge.jpg is larger than 3 MB.')).toBeInTheDocument();
    expect(
      await screen.findByRole('img', { name: 'small.jpg (waiting for approval)' }),
    ).toBeInTheDocument();
    const uploads = calls.filter((c) => c.url === '/v1/station/EdUp@42/image');
    expect(uploads).toHaveLength(1);
    const form = uploads[0]?.init?.body as FormData;
    expect((form.get('upload') as File).name).toBe('small.jpg');
    expect(
      screen.getByText(
        'Some of the files are waiting for aproval. This usually takes a few hours.',
      ),
    ).toBeInTheDocument();
  });
});
