// Operate (SPEC.md sections 2, 4, 5 and 8): auto tune or manual modem settings, and transmission.
// The save button reads 'Config saved' after loading or a successful save, 'Save config' after a change.
import {
  AUTO_TUNE_OPTIONS,
  StationOperateBodySchema,
  type AutoTuneValue,
  type StationFull,
} from '@tinygs/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { ApiError } from '../../../../lib/api';
import type { Session } from '../../../../lib/session';
import { saveStationOperate } from '../../api/stationActions';
import { ModemFields } from './ModemFields';
import { useOperateSatellites } from '../../api/operateSatellites';
import {
  autoTuneOf,
  modemConfOf,
  modemErrors,
  modemFormFromStation,
  parseModemConf,
  type ModemFormValues,
} from '../../lib/modemForm';
import {
  rememberedSatellite,
  rememberSatellite,
  satelliteDefaults,
} from '../../lib/satelliteChoice';
import { SatellitePicker } from './SatellitePicker';
import { TxPanel } from './TxPanel';

export const OPERATE_ERRORS = {
  offline:
    'It was not possible to communicate with the station. It is no longer online. Please reconnect the station and try again.',
  other: 'Error sending your request. Please try again later.',
} as const;

export const OPERATE_MAX_WIDTH_PX = 1010;

interface OperateDialogProps {
  open: boolean;
  onClose(): void;
  station: StationFull;
  session: Session | null;
  onSaved(station: StationFull): void;
}

export function OperateDialog({ open, onClose, ...rest }: OperateDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby="operate-title"
      fullWidth
      maxWidth={false}
      slotProps={{ paper: { sx: { maxWidth: OPERATE_MAX_WIDTH_PX } } }}
    >
      <OperateForm {...rest} onClose={onClose} />
    </Dialog>
  );
}

function OperateForm({ station, session, onSaved, onClose }: Omit<OperateDialogProps, 'open'>) {
  const initial = useMemo(() => modemFormFromStation(station), [station]);
  const [autoTune, setAutoTune] = useState<AutoTuneValue>(() => autoTuneOf(station));
  const [values, setValues] = useState<ModemFormValues>(initial.values);
  // A picked satellite brings its own firmware keys (sync bytes, filters...).
  const [extras, setExtras] = useState(initial.extras);
  const catalogue = useOperateSatellites();
  const [startedFromMemory, setStartedFromMemory] = useState(false);
  const [saved, setSaved] = useState(true);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // A station without a tuning of its own starts from the satellite last chosen in this browser.
  if (!startedFromMemory && !catalogue.loading && saved) {
    setStartedFromMemory(true);
    const remembered = rememberedSatellite();
    const satellite = catalogue.satellites.find((s) => s.name === remembered);
    const defaults = satellite ? satelliteDefaults(satellite) : null;
    if (defaults && parseModemConf(station.modem_conf).freq === undefined) {
      setValues(defaults.values);
      setExtras(defaults.extras);
    }
  }

  const manual = autoTune === 0;
  const errors = manual ? modemErrors(values, extras) : {};
  const valid = Object.keys(errors).length === 0;

  const changed = () => {
    setSaved(false);
    setError(null);
  };

  const save = async () => {
    const body = StationOperateBodySchema.safeParse(
      manual ? { autoTune, modem_conf: JSON.stringify(modemConfOf(values, extras)) } : { autoTune },
    );
    if (!body.success) return;
    setSending(true);
    setError(null);
    try {
      await saveStationOperate(station.id, session, body.data);
      setSaved(true);
      onSaved({
        ...station,
        autoTune: body.data.autoTune,
        ...(body.data.modem_conf !== undefined ? { modem_conf: body.data.modem_conf } : {}),
      });
    } catch (err) {
      console.warn('Operate save failed', err);
      setError(
        err instanceof ApiError && err.status === 409
          ? OPERATE_ERRORS.offline
          : OPERATE_ERRORS.other,
      );
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <DialogTitle id="operate-title">Operate {station.name}</DialogTitle>
      <DialogContent>
        <Stack spacing={3} sx={{ pt: 1 }}>
          <TextField
            select
            label="Auto tune"
            value={String(autoTune)}
            onChange={(event) => {
              const v = Number(event.target.value);
              setAutoTune(AUTO_TUNE_OPTIONS.find((o) => o.value === v)?.value ?? 0);
              changed();
            }}
            helperText="An enabled band lets the server tune the station to the best satellite."
            sx={{ maxWidth: 320 }}
          >
            {AUTO_TUNE_OPTIONS.map((o) => (
              <MenuItem key={o.value} value={String(o.value)}>
                {o.label}
              </MenuItem>
            ))}
          </TextField>
          <div>
            <Typography variant="h6" component="h3" gutterBottom>
              Manual Tuning
            </Typography>
            {!manual && (
              <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
                Manual tuning is available when auto tune is Disabled.
              </Typography>
            )}
            <ModemFields
              values={values}
              errors={errors}
              disabled={!manual}
              onChange={(next) => {
                setValues(next);
                changed();
              }}
              satelliteField={
                <SatellitePicker
                  satellites={catalogue.satellites}
                  loading={catalogue.loading}
                  value={values.sat}
                  disabled={!manual}
                  error={errors.sat}
                  onPick={(satellite) => {
                    const defaults = satelliteDefaults(satellite);
                    if (defaults) {
                      setValues(defaults.values);
                      setExtras(defaults.extras);
                    } else setValues({ ...values, sat: satellite.name });
                    rememberSatellite(satellite.name);
                    changed();
                  }}
                  onType={(name) => {
                    setValues({ ...values, sat: name });
                    changed();
                  }}
                />
              }
            />
          </div>
          {error && <Alert severity="error">{error}</Alert>}
          <Stack direction="row" spacing={2}>
            <Button
              variant="contained"
              onClick={() => void save()}
              disabled={saved || sending || !valid}
              startIcon={sending ? <CircularProgress size={16} aria-hidden /> : undefined}
            >
              {saved ? 'Config saved' : 'Save config'}
            </Button>
          </Stack>
          <Divider />
          <div>
            <Typography variant="h6" component="h3" gutterBottom>
              Transmission
            </Typography>
            <TxPanel stationId={station.id} session={session} txAllowed={station.tx === true} />
          </div>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </>
  );
}
