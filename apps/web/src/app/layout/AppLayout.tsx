import { lazy, Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import Box from '@mui/material/Box';
import Toolbar from '@mui/material/Toolbar';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { TopBar } from './TopBar';
import { NavLinks } from './NavLinks';
import { DRAWER_WIDTH } from './navigation';
import { Footer } from './Footer';
import { RouteErrorBoundary } from './RouteError';
import { PageLoading } from '../../components/PageLoading';

const SideDrawer = lazy(() => import('./SideDrawer'));

function useScrollToTopOnNavigation() {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    if (!hash) window.scrollTo(0, 0);
  }, [pathname, hash]);
}

export function AppLayout() {
  useScrollToTopOnNavigation();
  const { pathname } = useLocation();
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('lg'), { noSsr: true });
  // Wide screens keep the navigation beside the content; small screens open a drawer on demand.
  const [sidebarOpen, setSidebarOpen] = useState(true);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [drawerLoaded, setDrawerLoaded] = useState(false);

  const toggle = () => {
    if (wide) setSidebarOpen((v) => !v);
    else {
      setDrawerLoaded(true);
      setDrawerOpen((v) => !v);
    }
  };

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <Box
        component="a"
        href="#main"
        sx={{
          position: 'absolute',
          left: 8,
          top: -48,
          zIndex: (t) => t.zIndex.tooltip,
          p: 1,
          bgcolor: 'background.paper',
          color: 'text.primary',
          '&:focus': { top: 8 },
        }}
      >
        Skip to content
      </Box>
      <TopBar onToggleMenu={toggle} />
      {wide && sidebarOpen ? (
        <Box
          component="aside"
          sx={{
            width: DRAWER_WIDTH,
            flexShrink: 0,
            borderRight: 1,
            borderColor: 'divider',
            bgcolor: 'background.paper',
            position: 'sticky',
            top: 0,
            height: '100vh',
            overflowY: 'auto',
          }}
        >
          <Toolbar />
          <NavLinks />
        </Box>
      ) : null}
      {!wide && drawerLoaded ? (
        <Suspense fallback={null}>
          <SideDrawer open={drawerOpen} onClose={() => setDrawerOpen(false)} />
        </Suspense>
      ) : null}
      <Box sx={{ flexGrow: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <Toolbar />
        <Box
          component="main"
          id="main"
          tabIndex={-1}
          sx={{ outline: 'none', flexGrow: 1, p: { xs: 1.5, sm: 3 } }}
        >
          <RouteErrorBoundary key={pathname}>
            <Suspense fallback={<PageLoading />}>
              <Outlet />
            </Suspense>
          </RouteErrorBoundary>
        </Box>
        <Footer />
      </Box>
    </Box>
  );
}
