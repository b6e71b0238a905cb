import { lazy, Suspense, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import AppBar from '@mui/material/AppBar';
import Toolbar from '@mui/material/Toolbar';
import IconButton from '@mui/material/IconButton';
import Button from '@mui/material/Button';
import Box from '@mui/material/Box';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import MenuIcon from '@mui/icons-material/Menu';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import { Logo } from '../../components/Logo';
import { LINKS, PRODUCT_NAME } from '../../config/site';
import { clearSession, useSession } from '../../lib/session';
import { apiText } from '../../lib/api';
import { ThemeToggle } from './ThemeToggle';

// Tooltips are left out of the top bar on purpose: MUI's Tooltip brings Popper.js into the first
// download of every page. Native title attributes do the job.
// The dialogs belong to the auth feature and are only downloaded when a visitor opens one.
const LoginDialog = lazy(() => import('../../features/auth/LoginDialog'));
const RegisterDialog = lazy(() => import('../../features/auth/RegisterDialog'));

type OpenDialog = 'login' | 'register' | null;

interface TopBarProps {
  onToggleMenu: () => void;
}

export function TopBar({ onToggleMenu }: TopBarProps) {
  const session = useSession();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [overflowAnchor, setOverflowAnchor] = useState<HTMLElement | null>(null);

  const closeOverflow = () => setOverflowAnchor(null);

  const signOut = () => {
    closeOverflow();
    if (session) {
      // Best effort: the local session is cleared whatever the server answers.
      apiText('/v1/logout', { auth: session }).catch((error: unknown) =>
        console.warn('Logout call failed', error),
      );
    }
    clearSession();
    void navigate('/');
  };

  const openDialog = (which: Exclude<OpenDialog, null>) => {
    closeOverflow();
    setDialog(which);
  };

  const userLink = session ? `/user/${encodeURIComponent(session.userId)}` : '/';

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
            sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'inherit' }}
          >
            <Logo size={32} />
            <Typography variant="h6" component="span" sx={{ textDecoration: 'none' }}>
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
                <Button color="inherit" onClick={() => openDialog('login')}>
                  Login
                </Button>
                <Button color="inherit" onClick={() => openDialog('register')}>
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
          <Box sx={{ display: { xs: 'flex', sm: 'none' } }}>
            <IconButton
              color="inherit"
              aria-label="More actions"
              aria-haspopup="menu"
              aria-controls={overflowAnchor ? 'top-bar-overflow' : undefined}
              onClick={(event) => setOverflowAnchor(event.currentTarget)}
            >
              <MoreVertIcon />
            </IconButton>
          </Box>
        </Toolbar>
      </AppBar>
      <Menu
        id="top-bar-overflow"
        anchorEl={overflowAnchor}
        open={overflowAnchor !== null}
        onClose={closeOverflow}
      >
        {session
          ? [
              <MenuItem key="user" component={RouterLink} to={userLink} onClick={closeOverflow}>
                User console
              </MenuItem>,
              <MenuItem key="signout" onClick={signOut}>
                Sign Out
              </MenuItem>,
            ]
          : [
              <MenuItem key="login" onClick={() => openDialog('login')}>
                Login
              </MenuItem>,
              <MenuItem key="register" onClick={() => openDialog('register')}>
                Register
              </MenuItem>,
              <MenuItem
                key="donate"
                component="a"
                href={LINKS.donate}
                target="_blank"
                rel="noopener noreferrer"
                onClick={closeOverflow}
              >
                Donate
              </MenuItem>,
            ]}
      </Menu>
      <Suspense fallback={null}>
        {dialog === 'login' && <LoginDialog open onClose={() => setDialog(null)} />}
        {dialog === 'register' && <RegisterDialog open onClose={() => setDialog(null)} />}
      </Suspense>
    </>
  );
}
