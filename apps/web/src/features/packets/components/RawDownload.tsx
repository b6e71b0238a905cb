import Button from '@mui/material/Button';
import { base64ToBytes, isBase64 } from '@tinygs/contracts';
import { DownloadIcon } from '../../../components/icons/uiIcons';

/** Saves the frame bytes as {id}.bin. */
export function RawDownload({ raw, id }: { raw: string; id: string }) {
  const valid = isBase64(raw);
  const download = () => {
    const blob = new Blob([new Uint8Array(base64ToBytes(raw))], {
      type: 'application/octet-stream',
    });
    const url = URL.createObjectURL(blob);
    const anchor = document.createElement('a');
    anchor.href = url;
    anchor.download = `${id}.bin`;
    anchor.click();
    // Revoke after the click has been handled so the download is not cancelled.
    window.setTimeout(() => URL.revokeObjectURL(url), 0);
  };
  return (
    <Button variant="outlined" startIcon={<DownloadIcon />} disabled={!valid} onClick={download}>
      Download raw bytes
    </Button>
  );
}
