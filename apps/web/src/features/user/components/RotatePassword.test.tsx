import { configure, screen, within } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../../test/fetchMock';
import { renderWithApp } from '../../../../test/render';
import { CredentialsDialog } from './CredentialsDialog';
import { ROTATE_TEXTS } from './RotatePassword';

vi.setConfig({ testTimeout: 20_000 });
configure({ asyncUtilTimeout: 5_000 });

const SESSION = { userId: '42', sessionToken: 'tok' };

function renderDialog() {
  renderWithApp(<CredentialsDialog open onClose={() => undefined} session={SESSION} userId="42" />);
}

describe('changing the broker password', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks first, then shows the new password from the server', async () => {
    const calls = mockFetch({
      '/v1/mqttcred?userId=42': { body: { user: '42', pass: 'old-pass' } },
      '/v1/mqttcred/rotate?userId=42': { body: { user: '42', pass: 'new-pass' } },
    });
    renderDialog();
    expect(await screen.findByText('old-pass')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: ROTATE_TEXTS.button }));
    const warning = screen.getByRole('alert');
    expect(warning).toHaveTextContent(ROTATE_TEXTS.warning);
    expect(calls.some((c) => c.url.includes('/rotate'))).toBe(false);

    await userEvent.click(within(warning).getByRole('button', { name: ROTATE_TEXTS.button }));
    expect(await screen.findByText('new-pass')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(ROTATE_TEXTS.done);
    const rotate = calls.find((c) => c.url === '/v1/mqttcred/rotate?userId=42');
    expect(rotate?.init?.method).toBe('POST');
    expect(rotate?.init?.headers).toMatchObject({ userId: '42', sessionToken: 'tok' });
  });

  it('keeps the old password and says so when the change fails', async () => {
    mockFetch({
      '/v1/mqttcred?userId=42': { body: { user: '42', pass: 'old-pass' } },
      '/v1/mqttcred/rotate?userId=42': { status: 500, body: { error: 'boom' } },
    });
    renderDialog();
    await userEvent.click(await screen.findByRole('button', { name: ROTATE_TEXTS.button }));
    const warning = screen.getByRole('alert');
    await userEvent.click(within(warning).getByRole('button', { name: ROTATE_TEXTS.button }));
    expect(await screen.findByText(ROTATE_TEXTS.failed)).toBeInTheDocument();
    expect(screen.getByText('old-pass')).toBeInTheDocument();
  });

  it('offers no change without a session', () => {
    mockFetch({});
    renderWithApp(<CredentialsDialog open onClose={() => undefined} session={null} userId="42" />);
    expect(screen.queryByRole('button', { name: ROTATE_TEXTS.button })).toBeNull();
  });
});
