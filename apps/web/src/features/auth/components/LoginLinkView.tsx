import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { loginWithToken } from '../api/loginWithToken';
import { saveSession, storedUserId } from '../../../lib/session';

export const LOGIN_LINK_ERROR = 'Login error! This login token has expired.';

interface LoginLinkViewProps {
  loginToken: string;
  userId: string;
}

/** Full-screen view for `/?loginToken=&userId=` (SPEC.md section 4, Login). */
export function LoginLinkView({ loginToken, userId }: LoginLinkViewProps) {
  const navigate = useNavigate();
  const [failed, setFailed] = useState(false);
  // A login token may be single-use: StrictMode's second effect run must not spend it twice.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const existing = storedUserId();
    if (existing) {
      void navigate(`/user/${encodeURIComponent(existing)}`, { replace: true });
      return;
    }
    loginWithToken(loginToken, userId).then(
      (sessionToken) => {
        saveSession({ userId, sessionToken });
        void navigate(`/user/${encodeURIComponent(userId)}`, { replace: true });
      },
      (error: unknown) => {
        console.warn('Login with token failed', error);
        setFailed(true);
      },
    );
  }, [loginToken, userId, navigate]);

  return (
    <Box
      role="status"
      aria-live="polite"
      sx={{
        position: 'fixed',
        inset: 0,
        zIndex: (theme) => theme.zIndex.modal + 1,
        bgcolor: 'background.default',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 2,
        p: 2,
      }}
    >
      {failed ? (
        <>
          <Alert severity="error">{LOGIN_LINK_ERROR}</Alert>
          <Button component={RouterLink} to="/" replace variant="contained">
            Back to the map
          </Button>
        </>
      ) : (
        <>
          <CircularProgress aria-hidden="true" />
          <Typography variant="h6" component="p">
            Logging in...
          </Typography>
        </>
      )}
    </Box>
  );
}
