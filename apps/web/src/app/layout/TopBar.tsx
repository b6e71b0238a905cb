import { lazy, Suspense, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import AppBar from '@mui/material/AppBar';
import Toolbar from '@mui/material/Toolbar';
import IconButton from '@mui/material/IconButton';
import Button from '@mui/material/Button';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { Logo } from '../../components/Logo';
import { LINKS, PRODUCT_NAME } from '../../config/site';
import { clearSession, useSession } from '../../lib/session';
import { apiText } from '../../lib/api';
import { ThemeToggle } from './ThemeToggle';
import type { OverflowAction } from './OverflowMenu';
import { MenuIcon, MoreVertIcon, AccountCircleIcon } from '../../components/icons/uiIcons';

// Tooltips are left out of the top bar on purpose: MUI's Tooltip brings Popper.js into the first
// download of every page. Native title attributes do the job. The menu and the dialogs are only
// downloaded when a visitor opens one.
const OverflowMenu = lazy(() => import('./OverflowMenu'));
const LoginDialog = lazy(() => import('../../features/auth/LoginDialog'));
const RegisterDialog = lazy(() => import('../../features/auth/RegisterDialog'));

type OpenDialog = 'login' | 'register' | null;

export function TopBar({ onToggleMenu }: { onToggleMenu: () => void }) {
  const session = useSession();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [overflowAnchor, setOverflowAnchor] = useState<HTMLElement | null>(null);

  const signOut = () => {
    if (session) {
      // Best effort: the local session is cleared whatever the server answers.
      apiText('/v1/logout', { auth: session }).catch((error: unknown) =>
        console.warn('Logout call failed', error),
      );
    }
    clearSession();
    void navigate('/');
  };

  const userLink = session ? `/user/${encodeURIComponent(session.userId)}` : '/';
  const actions: OverflowAction[] = session
    ? [
        { label: 'User console', to: userLink },
        { label: 'Sign Out', onClick: signOut },
      ]
    : [
        { label: 'Login', onClick: () => setDialog('login') },
        { label: 'Register', onClick: () => setDialog('register') },
        { label: 'Donate', href: LINKS.donate },
      ];

  return (
    <>
      <AppBar position="fixed" sx={{ zIndex: (theme) => theme.zIndex.drawer + 1 }}>
        <Toolbar>
          <IconButton
            color="inherit"
            edge="start"
            aria-label="Toggle navigation menu"
            onClick={onToggleMenu}
            sx={{ mr: 1 }}
          >
            <MenuIcon />
          </IconButton>
          <Box
            component={RouterLink}
            to="/"
            aria-label={`${PRODUCT_NAME} home`}
            sx={{
              display: 'flex',
              alignItems: 'center',
              gap: 1,
              color: 'inherit',
              textDecoration: 'none',
            }}
          >
            <Logo size={32} />
            <Typography variant="h6" component="span">
              {PRODUCT_NAME}
            </Typography>
          </Box>
          <Box sx={{ flexGrow: 1 }} />
          <ThemeToggle />
          <Box sx={{ display: { xs: 'none', sm: 'flex' }, alignItems: 'center', gap: 1 }}>
            {session ? (
              <>
                <IconButton
                  color="inherit"
                  component={RouterLink}
                  to={userLink}
                  aria-label="User console"
                  title="User console"
                >
                  <AccountCircleIcon />
                </IconButton>
                <Button color="inherit" onClick={signOut}>
                  Sign Out
                </Button>
              </>
            ) : (
              <>
                <Button color="inherit" onClick={() => setDialog('login')}>
                  Login
                </Button>
                <Button color="inherit" onClick={() => setDialog('register')}>
                  Register
                </Button>
                <Button
                  color="inherit"
                  variant="outlined"
                  href={LINKS.donate}
                  target="_blank"
                  rel="noopener noreferrer"
                >
                  Donate
                </Button>
              </>
            )}
          </Box>
          <IconButton
            color="inherit"
            aria-label="More actions"
            aria-haspopup="menu"
            aria-controls={overflowAnchor ? 'top-bar-overflow' : undefined}
            onClick={(event) => setOverflowAnchor(event.currentTarget)}
            sx={{ display: { xs: 'inline-flex', sm: 'none' } }}
          >
            <MoreVertIcon />
          </IconButton>
        </Toolbar>
      </AppBar>
      <Suspense fallback={null}>
        {overflowAnchor ? (
          <OverflowMenu
            id="top-bar-overflow"
            anchor={overflowAnchor}
            actions={actions}
            onClose={() => setOverflowAnchor(null)}
          />
        ) : null}
        {dialog === 'login' && <LoginDialog open onClose={() => setDialog(null)} />}
        {dialog === 'register' && <RegisterDialog open onClose={() => setDialog(null)} />}
      </Suspense>
    </>
  );
}
