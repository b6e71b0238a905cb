// User Console (SPEC.md sections 2, 6 and 8): a spinner until the user loads (it stays when the
// load fails), the e-mail, credentials and new-station dialogs, and the user's station cards.
import { useQueryClient } from '@tanstack/react-query';
import { formatStationId, type StationListItem, type User } from '@tinygs/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCallback, useState } from 'react';
import { useParams } from 'react-router';
import { PageLoading } from '../../components/PageLoading';
import { useSession } from '../../lib/session';
import { StationCard, useOwnStationIps, useUserStations, userStationsQueryKey } from '../stations';
import { useUser, userQueryKey } from './api/userQueries';
import { ApiTokensDialog } from './components/ApiTokensDialog';
import { CredentialsDialog } from './components/CredentialsDialog';
import { EmailDialog, pendingEmailText } from './components/EmailDialog';
import { LogoutEverywhere } from './components/LogoutEverywhere';
import { NewStationDialog } from './components/NewStationDialog';

export const VALIDATE_EMAIL_WARNING = 'Please check your mailbox and validate the email.';

type OpenDialog = 'email' | 'credentials' | 'station' | 'tokens' | null;

/** A stable empty list while the stations load (the hook memoises on it). */
const NO_STATIONS: StationListItem[] = [];

export default function UserPage() {
  const { userId = '' } = useParams();
  const session = useSession();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const user = useUser(userId, session);
  const stations = useUserStations(userId);
  const ownIps = useOwnStationIps(stations.data ?? NO_STATIONS);
  const onCreated = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: userStationsQueryKey(userId) }),
    [queryClient, userId],
  );
  const close = () => setDialog(null);

  return (
    <Stack spacing={3}>
      <Typography variant="h4" component="h1">
        User Console
      </Typography>
      {!user.data ? (
        <PageLoading label="Loading user" />
      ) : (
        <>
          {user.data.acceptedTerms && !user.data.emailVal && (
            <Alert severity="warning">{VALIDATE_EMAIL_WARNING}</Alert>
          )}
          {user.data.pendingEmail && <Alert severity="info">{pendingEmailText(user.data)}</Alert>}
          <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <Button variant="contained" onClick={() => setDialog('email')}>
              E-mail
            </Button>
            <Button variant="contained" onClick={() => setDialog('credentials')}>
              CREDENTIALS
            </Button>
            <Button variant="contained" onClick={() => setDialog('station')}>
              NEW STATION
            </Button>
            <Button variant="outlined" onClick={() => setDialog('tokens')}>
              API TOKENS
            </Button>
          </Stack>
          <Grid container spacing={2}>
            {(stations.data ?? []).map((s) => (
              <Grid key={formatStationId(s.name, s.userId)} size={{ xs: 12, md: 6, lg: 4 }}>
                <StationCard station={s} localIp={ownIps.get(formatStationId(s.name, s.userId))} />
              </Grid>
            ))}
          </Grid>
          {stations.data?.length === 0 && <Typography>No stations yet.</Typography>}
          {session && <LogoutEverywhere session={session} userId={userId} />}
          <EmailDialog
            open={dialog === 'email'}
            onClose={close}
            user={user.data}
            userId={userId}
            session={session}
            onSaved={(saved: User) =>
              queryClient.setQueryData(userQueryKey(userId, session), saved)
            }
          />
          <NewStationDialog
            open={dialog === 'station'}
            onClose={close}
            userId={userId}
            onCreated={onCreated}
          />
        </>
      )}
      <ApiTokensDialog
        open={dialog === 'tokens'}
        onClose={close}
        session={session}
        userId={userId}
      />
      <CredentialsDialog
        open={dialog === 'credentials'}
        onClose={close}
        session={session}
        userId={userId}
      />
    </Stack>
  );
}
