import { useSyncExternalStore } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { base64ToBytes, isBase64, isCrcErrorRaw, isTestFrameRaw } from '@tinygs/contracts';
import { hexBytesPerRow, hexRows } from '../lib/hex';

export const HEX_INVALID_TEXT = 'Invalid Data';
export const HEX_CRC_ERROR_TEXT = 'CRC ERROR';
export const HEX_TEST_LABEL = 'Test packet';

function subscribeResize(onChange: () => void): () => void {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

function useBytesPerRow(): number {
  return useSyncExternalStore(
    subscribeResize,
    () => hexBytesPerRow(window.innerWidth),
    () => hexBytesPerRow(0),
  );
}

const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' };

/** Hexadecimal dump of a base64 frame, with the markers of SPEC.md section 8. */
export function HexView({ raw }: { raw: string }) {
  const perRow = useBytesPerRow();
  if (isCrcErrorRaw(raw)) {
    return (
      <Typography sx={{ ...mono, color: 'error.main', fontWeight: 700 }}>
        {HEX_CRC_ERROR_TEXT}
      </Typography>
    );
  }
  if (!isBase64(raw)) {
    return <Typography sx={{ ...mono, color: 'error.main' }}>{HEX_INVALID_TEXT}</Typography>;
  }
  const rows = hexRows(base64ToBytes(raw), perRow);
  return (
    <Box>
      {isTestFrameRaw(raw) ? (
        <Chip size="small" color="warning" label={HEX_TEST_LABEL} sx={{ mb: 1 }} />
      ) : null}
      <Box
        component="pre"
        tabIndex={0}
        data-bytes-per-row={perRow}
        aria-label="Hexadecimal view"
        sx={{ ...mono, fontSize: '0.8rem', m: 0, overflowX: 'auto', lineHeight: 1.6 }}
      >
        {rows.map((row) => (
          <div key={row.offset} data-testid="hex-row">
            <Box component="span" sx={{ color: 'text.secondary' }}>
              {row.offset}
            </Box>
            {'  '}
            {row.hex.join(' ').padEnd(perRow * 3 - 1, ' ')}
            {'  '}
            <Box component="span" sx={{ color: 'text.secondary' }}>
              {row.ascii}
            </Box>
          </div>
        ))}
      </Box>
    </Box>
  );
}
