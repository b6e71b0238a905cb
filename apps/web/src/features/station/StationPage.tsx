// Station page and Station Console (SPEC.md sections 2, 4, 6 and 8) at /station/{name}@{userId}.
// The owner (stored user id = the station's userId) also gets the action bar, the edit view,
// the Operate dialog and Load more.
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useSession, useStoredUserId } from '../../lib/session';
import { StationCard } from '../stations';
import { deleteStation } from './api/stationActions';
import { forgetStation, STATION_LOAD_TEXTS, useStation } from './api/stationLoader';
import { OwnerActions } from './components/OwnerActions';
import { StationDetails } from './components/StationDetails';
import { StationPictures } from './components/StationPictures';
import { EditStation } from './components/edit/EditStation';
import { OperateDialog } from './components/operate/OperateDialog';
import { ArrowBackIcon } from '../../components/icons/uiIcons';

export default function StationPage() {
  const params = useParams();
  // The station id is the last path segment.
  const stationId = (params.stationId ?? params['*'] ?? '').split('/').filter(Boolean).pop() ?? '';
  const session = useSession();
  const storedUserId = useStoredUserId();
  const navigate = useNavigate();
  const loader = useStation(stationId, session);
  const queryClient = useQueryClient();
  const [view, setView] = useState<'page' | 'edit'>('page');
  const [operating, setOperating] = useState(false);

  const back = () => {
    if (window.history.length > 1) void navigate(-1);
    else void navigate('/stations');
  };

  if (loader.status !== 'loaded' || !loader.station) {
    return (
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Button startIcon={<ArrowBackIcon />} onClick={back}>
          Back
        </Button>
        {loader.status === 'failed' ? (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={loader.reload}>
                Try again
              </Button>
            }
          >
            {STATION_LOAD_TEXTS.failed}
            {loader.error && loader.error !== STATION_LOAD_TEXTS.failed ? `: ${loader.error}` : ''}
          </Alert>
        ) : (
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }} role="status">
            <CircularProgress size={24} aria-label="Loading station" />
            <Typography>{loader.error ?? `Loading ${stationId}...`}</Typography>
            <Button size="small" onClick={loader.cancel}>
              Cancel
            </Button>
          </Stack>
        )}
      </Stack>
    );
  }

  const station = loader.station;
  const isOwner = storedUserId !== null && storedUserId === station.userId;

  if (isOwner && view === 'edit') {
    return (
      <EditStation
        station={station}
        session={session}
        onSaved={(saved) => {
          loader.update(saved);
          setView('page');
        }}
        onPicturesChanged={(pictures) => loader.update({ ...station, pictures })}
        onCancel={() => setView('page')}
      />
    );
  }

  const remove = async () => {
    try {
      await deleteStation(station.id, session);
      forgetStation(queryClient, station.id);
      void navigate(`/user/${encodeURIComponent(station.userId)}`);
    } catch (error) {
      console.warn('Deleting the station failed', error);
    }
  };

  return (
    <Stack spacing={3}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Button startIcon={<ArrowBackIcon />} onClick={back}>
          Back
        </Button>
        <Typography variant="h4" component="h1">
          Station Console
        </Typography>
      </Stack>
      <StationCard
        station={station}
        actions={
          isOwner ? (
            <OwnerActions
              station={station}
              onEdit={() => setView('edit')}
              onOperate={() => setOperating(true)}
              onDelete={remove}
            />
          ) : undefined
        }
      />
      <StationPictures pictures={station.pictures} />
      <StationDetails station={station} isOwner={isOwner} session={session} />
      {isOwner && (
        <OperateDialog
          open={operating}
          onClose={() => setOperating(false)}
          station={station}
          session={session}
          onSaved={loader.update}
        />
      )}
    </Stack>
  );
}
