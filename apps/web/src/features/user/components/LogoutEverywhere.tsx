// "Log out everywhere" in the User Console: ends every session of the account on the server, this
// browser's included (docs/SECURITY.md), after asking first. This browser then forgets its session
// and returns home, as after Sign Out.
import { useMutation } from '@tanstack/react-query';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { clearSession, type Session } from '../../../lib/session';
import { logoutEverywhere } from '../api/userActions';
import { ConfirmAlert } from './ConfirmAlert';

export const LOGOUT_EVERYWHERE_TEXTS = {
  button: 'Log out everywhere',
  warning:
    'This logs your account out on every device and browser, this one included, and cancels login links not used yet. You log in again with a new login link.',
  failed: 'Could not log out everywhere. Please try again later.',
} as const;

export function LogoutEverywhere(props: { session: Session; userId: string }) {
  const { session, userId } = props;
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const logout = useMutation({
    mutationFn: () => logoutEverywhere(userId, session),
    onSuccess: () => {
      clearSession();
      void navigate('/');
    },
  });
  if (!asking) {
    return (
      <Button
        variant="outlined"
        color="warning"
        sx={{ alignSelf: 'flex-start' }}
        onClick={() => {
          logout.reset();
          setAsking(true);
        }}
      >
        {LOGOUT_EVERYWHERE_TEXTS.button}
      </Button>
    );
  }
  return (
    <ConfirmAlert
      failed={logout.isError}
      actionLabel={LOGOUT_EVERYWHERE_TEXTS.button}
      busy={logout.isPending}
      onCancel={() => setAsking(false)}
      onConfirm={() => logout.mutate()}
    >
      {logout.isError ? LOGOUT_EVERYWHERE_TEXTS.failed : LOGOUT_EVERYWHERE_TEXTS.warning}
    </ConfirmAlert>
  );
}
