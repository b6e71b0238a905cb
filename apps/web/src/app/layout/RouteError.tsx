import { isRouteErrorResponse, Link as RouterLink, useRouteError } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';

/** Last resort when a page throws while rendering or its chunk fails to load. */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Unexpected error';
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
