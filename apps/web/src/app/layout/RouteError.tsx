import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';

function RouteErrorView({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message : 'Unexpected error';
  return (
    <Box sx={{ p: 3, maxWidth: 720, mx: 'auto' }}>
      <Alert severity="error" sx={{ mb: 2 }}>
        Something went wrong while showing this page: {message}
      </Alert>
      <Button variant="contained" onClick={() => window.location.reload()} sx={{ mr: 1 }}>
        Reload
      </Button>
      <Button component={RouterLink} to="/">
        Home
      </Button>
    </Box>
  );
}

interface BoundaryProps {
  children: ReactNode;
}

/**
 * Last resort when a page throws while rendering or its chunk fails to load (a new deployment
 * removed the old chunk). The layout keys it by path, so navigating away clears the error.
 */
export class RouteErrorBoundary extends Component<BoundaryProps, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('Page failed', error, info.componentStack);
  }

  override render() {
    if (this.state.error) return <RouteErrorView error={this.state.error} />;
    return this.props.children;
  }
}
