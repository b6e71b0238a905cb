import { Suspense, useEffect, useState } from 'react';
import { Outlet, ScrollRestoration, useMatches } from 'react-router';
import Box from '@mui/material/Box';
import Toolbar from '@mui/material/Toolbar';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { TopBar } from './TopBar';
import { DRAWER_WIDTH, SideDrawer } from './SideDrawer';
import { Footer } from './Footer';
import { documentTitle } from '../routeTitle';
import { PageLoading } from '../../components/PageLoading';

function useRouteDocumentTitle() {
  const matches = useMatches();
  const title = documentTitle(matches);
  useEffect(() => {
    document.title = title;
  }, [title]);
}

export function AppLayout() {
  useRouteDocumentTitle();
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('lg'), { noSsr: true });
  // Wide screens keep the drawer open beside the content; small screens open it on demand.
  const [wideOpen, setWideOpen] = useState(true);
  const [narrowOpen, setNarrowOpen] = useState(false);
  const open = wide ? wideOpen : narrowOpen;

  const toggle = () => (wide ? setWideOpen((v) => !v) : setNarrowOpen((v) => !v));

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <TopBar onToggleMenu={toggle} />
      <SideDrawer
        open={open}
        variant={wide ? 'persistent' : 'temporary'}
        onClose={() => (wide ? setWideOpen(false) : setNarrowOpen(false))}
      />
      <Box
        sx={{
          flexGrow: 1,
          minWidth: 0,
          display: 'flex',
          flexDirection: 'column',
          ml: wide && !open ? `-${DRAWER_WIDTH}px` : 0,
          transition: theme.transitions.create('margin'),
        }}
      >
        <Toolbar />
        <Box component="main" id="main" sx={{ flexGrow: 1, p: { xs: 1.5, sm: 3 } }}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </Box>
        <Footer />
      </Box>
      <ScrollRestoration />
    </Box>
  );
}
