// The edit view's pictures: add (at most 10, 3 MB each, resized before upload) and remove after a
// confirmation (SPEC.md section 5). Both calls happen at once; Save is not needed for them.
import { PICTURE_MAX_BYTES, PICTURE_MAX_FILES, type Picture } from '@tinygs/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState, type ChangeEvent } from 'react';
import type { Session } from '../../../../lib/session';
import { removePicture, uploadPicture } from '../../api/stationActions';
import { PENDING_PICTURES_WARNING, PicturePlaceholder, visiblePictures } from '../StationPictures';
import { preparePicture } from '../../lib/resizeImage';
import { DeleteIcon } from '../../../../components/icons/uiIcons';

export const REMOVE_PICTURE_CONFIRM = 'Are you sure? This action cannot be undone.';
const TOO_LARGE = (name: string) => `${name} is larger than 3 MB.`; // ours
const TOO_MANY = `A station can have at most ${PICTURE_MAX_FILES} pictures.`; // ours
const UPLOAD_FAILED = (name: string) => `${name} could not be uploaded.`; // ours
const REMOVE_FAILED = 'The picture could not be removed.'; // ours

interface PictureManagerProps {
  stationId: string;
  session: Session | null;
  pictures: readonly Picture[];
  onChange(pictures: Picture[]): void;
}

export function PictureManager({ stationId, session, pictures, onChange }: PictureManagerProps) {
  const [thumbnails, setThumbnails] = useState<Record<string, string>>({});
  const [uploading, setUploading] = useState(0);
  const [errors, setErrors] = useState<string[]>([]);
  const [removing, setRemoving] = useState<Picture | null>(null);
  const shown = visiblePictures(pictures);

  const add = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    event.target.value = '';
    const problems: string[] = [];
    let room = PICTURE_MAX_FILES - shown.length;
    let current = [...pictures];
    const accepted: File[] = [];
    for (const file of files) {
      if (file.size > PICTURE_MAX_BYTES) problems.push(TOO_LARGE(file.name));
      else if (room <= 0) {
        if (!problems.includes(TOO_MANY)) problems.push(TOO_MANY);
      } else {
        accepted.push(file);
        room -= 1;
      }
    }
    setErrors(problems);
    for (const file of accepted) {
      setUploading((n) => n + 1);
      try {
        const prepared = await preparePicture(file);
        const shortId = await uploadPicture(stationId, session, prepared.upload, prepared.fileName);
        const thumbnail = prepared.thumbnail;
        if (thumbnail) setThumbnails((t) => ({ ...t, [shortId]: thumbnail }));
        current = [
          ...current,
          {
            status: 0,
            size: prepared.upload.size,
            origName: file.name,
            type: prepared.upload.type || file.type,
            shortId,
            src: '',
          },
        ];
        onChange(current);
      } catch (error) {
        console.warn('Picture upload failed', error);
        setErrors((e) => [...e, UPLOAD_FAILED(file.name)]);
      } finally {
        setUploading((n) => n - 1);
      }
    }
  };

  const confirmRemove = async () => {
    const picture = removing;
    if (!picture) return;
    setRemoving(null);
    try {
      await removePicture(stationId, session, picture.shortId);
      onChange(pictures.filter((p) => p.shortId !== picture.shortId));
    } catch (error) {
      console.warn('Picture removal failed', error);
      setErrors([REMOVE_FAILED]);
    }
  };

  return (
    <Stack spacing={1}>
      <Typography variant="subtitle1" component="h3">
        Pictures
      </Typography>
      {shown.some((p) => p.status === 0) && (
        <Alert severity="warning">{PENDING_PICTURES_WARNING}</Alert>
      )}
      {errors.map((e) => (
        <Alert key={e} severity="error">
          {e}
        </Alert>
      ))}
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))',
          gap: 1,
        }}
      >
        {shown.map((p) => {
          const thumb = thumbnails[p.shortId];
          return (
            <Box key={p.shortId} sx={{ position: 'relative', aspectRatio: '4 / 3' }}>
              {p.status === 0 && !thumb ? (
                <PicturePlaceholder name={p.origName} />
              ) : (
                <Box
                  component="img"
                  src={thumb ?? p.src}
                  alt={p.origName}
                  sx={{ width: '100%', height: '100%', objectFit: 'cover', borderRadius: 1 }}
                />
              )}
              <IconButton
                size="small"
                aria-label={`Remove ${p.origName}`}
                onClick={() => setRemoving(p)}
                sx={{ position: 'absolute', top: 4, right: 4, bgcolor: 'background.paper' }}
              >
                <DeleteIcon fontSize="small" />
              </IconButton>
            </Box>
          );
        })}
      </Box>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Button component="label" variant="outlined" disabled={shown.length >= PICTURE_MAX_FILES}>
          Add pictures
          <input hidden type="file" accept="image/*" multiple onChange={(e) => void add(e)} />
        </Button>
        {uploading > 0 && <CircularProgress size={20} aria-label="Uploading pictures" />}
        <Typography variant="caption" color="text.secondary">
          Up to {PICTURE_MAX_FILES} pictures, 3 MB each.
        </Typography>
      </Stack>
      <Dialog open={removing !== null} onClose={() => setRemoving(null)}>
        <DialogContent>
          <DialogContentText>{REMOVE_PICTURE_CONFIRM}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setRemoving(null)}>Cancel</Button>
          <Button color="error" onClick={() => void confirmRemove()}>
            Remove
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
