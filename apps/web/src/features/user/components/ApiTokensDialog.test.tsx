import { configure, screen, within } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import type { ApiToken } from '@tinygs/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../../test/fetchMock';
import { renderWithApp } from '../../../../test/render';
import { ApiTokensDialog, TOKEN_TEXTS } from './ApiTokensDialog';

vi.setConfig({ testTimeout: 20_000 });
configure({ asyncUtilTimeout: 5_000 });

const SESSION = { userId: '42', sessionToken: 'tok' };
const BASE = '/v1/user/42/tokens';
const TOKEN = `tgs_${'a'.repeat(43)}`;
const EXISTING: ApiToken = {
  id: 'old1',
  name: 'Grafana',
  prefix: 'tgs_Zz9q',
  createdAt: Date.UTC(2026, 0, 2),
  lastUsedAt: null,
};

function renderDialog() {
  renderWithApp(<ApiTokensDialog open onClose={() => undefined} session={SESSION} userId="42" />);
}

describe('API tokens in the User Console', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists tokens by name and first characters, and shows a new token once', async () => {
    let list: ApiToken[] = [EXISTING];
    const calls = mockFetch({
      [BASE]: (init) => {
        if (init?.method !== 'POST') return { body: list };
        const created = { ...EXISTING, id: 'new1', name: 'cron', prefix: TOKEN.slice(0, 8) };
        list = [...list, created];
        return { body: { ...created, token: TOKEN } };
      },
    });
    renderDialog();
    expect(await screen.findByText('Grafana')).toBeInTheDocument();
    expect(screen.getByText('tgs_Zz9q…')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: TOKEN_TEXTS.create })).toBeDisabled();

    await userEvent.type(screen.getByLabelText(TOKEN_TEXTS.name), '  cron ');
    await userEvent.click(screen.getByRole('button', { name: TOKEN_TEXTS.create }));
    expect(await screen.findByText(TOKEN)).toBeInTheDocument();
    expect(screen.getByText(TOKEN_TEXTS.shownOnce)).toBeInTheDocument();
    const post = calls.find((c) => c.init?.method === 'POST');
    expect(JSON.parse(String(post?.init?.body))).toEqual({ name: 'cron' });
    expect(post?.init?.headers).toMatchObject({ userId: '42', sessionToken: 'tok' });
    expect(await screen.findByText('cron')).toBeInTheDocument();
  });

  it('revokes a token only after asking', async () => {
    let list: ApiToken[] = [EXISTING];
    const calls = mockFetch({
      [BASE]: { body: list },
      [`${BASE}/old1`]: (init) => {
        if (init?.method === 'DELETE') list = [];
        return { body: { message: 'Token revoked' } };
      },
    });
    renderDialog();
    const row = (await screen.findByText('Grafana')).closest('li') as HTMLElement;
    await userEvent.click(within(row).getByRole('button', { name: TOKEN_TEXTS.revoke }));
    expect(within(row).getByText(TOKEN_TEXTS.revokeAsk)).toBeInTheDocument();
    expect(calls.some((c) => c.init?.method === 'DELETE')).toBe(false);
    await userEvent.click(within(row).getByRole('button', { name: 'Revoke Grafana' }));
    await vi.waitFor(() =>
      expect(calls.find((c) => c.init?.method === 'DELETE')?.url).toBe(`${BASE}/old1`),
    );
  });

  it('shows the server’s reason when the cap is reached', async () => {
    mockFetch({
      [BASE]: (init) =>
        init?.method === 'POST'
          ? { status: 409, body: { error: 'You already have 10 tokens.' } }
          : { body: [] },
    });
    renderDialog();
    expect(await screen.findByText(TOKEN_TEXTS.none)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(TOKEN_TEXTS.name), 'eleventh');
    await userEvent.click(screen.getByRole('button', { name: TOKEN_TEXTS.create }));
    expect(await screen.findByText('You already have 10 tokens.')).toBeInTheDocument();
  });
});
