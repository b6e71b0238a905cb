// User Console (SPEC.md section 2, User page): a spinner until the user loads (it stays when the
// load fails), the broker credentials, and the user's station cards. The e-mail preferences and
// new-station dialogs are not built yet (issue 8).
import { useQuery } from '@tanstack/react-query';
import { StationsResponseSchema, UserResponseSchema } from '@tinygs/contracts';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useParams } from 'react-router';
import { PageLoading } from '../../components/PageLoading';
import { api } from '../../lib/api';
import { useSession } from '../../lib/session';
import { StationCard } from '../stations';
import { CredentialsDialog } from './CredentialsDialog';

export default function UserPage() {
  const { userId = '' } = useParams();
  const session = useSession();
  const [credentialsOpen, setCredentialsOpen] = useState(false);
  const user = useQuery({
    queryKey: ['user', userId, session?.sessionToken],
    queryFn: ({ signal }) =>
      api(`/v1/user?userId=${encodeURIComponent(userId)}`, UserResponseSchema, {
        auth: session,
        signal,
      }),
    enabled: session !== null,
    retry: false,
  });
  const stations = useQuery({
    queryKey: ['stations', 'user', userId],
    queryFn: ({ signal }) =>
      api(`/v1/stations?userId=${encodeURIComponent(userId)}`, StationsResponseSchema, { signal }),
  });

  return (
    <Stack spacing={3}>
      <Typography variant="h4" component="h1">
        User Console
      </Typography>
      {!user.data ? (
        <PageLoading label="Loading user" />
      ) : (
        <>
          <Typography>{user.data.email}</Typography>
          <Stack direction="row" spacing={2}>
            <Button variant="contained" onClick={() => setCredentialsOpen(true)}>
              CREDENTIALS
            </Button>
          </Stack>
          <Grid container spacing={2}>
            {(stations.data ?? []).map((s) => (
              <Grid key={`${s.name}@${s.userId}`} size={{ xs: 12, md: 6, lg: 4 }}>
                <StationCard station={s} />
              </Grid>
            ))}
          </Grid>
          {stations.data?.length === 0 && <Typography>No stations yet.</Typography>}
        </>
      )}
      <CredentialsDialog
        open={credentialsOpen}
        onClose={() => setCredentialsOpen(false)}
        session={session}
        userId={userId}
      />
    </Stack>
  );
}
