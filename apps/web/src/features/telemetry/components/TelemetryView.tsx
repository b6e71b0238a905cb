import { useMemo } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ParsedFrame } from '@tinygs/contracts';
import { renderTemplate } from '../lib/renderTemplate';
import { HexView } from '../../../components/HexView';

export const UNRECOGNIZED_PACKET =
  'Unrecognized packet. This packet does not match the known structure of this satellite. It might be an unknown packet or just terrestrial noise.';
export const TEMPLATE_ERROR_TEXT = 'The telemetry template of this satellite could not be shown.';
export const UNVERIFIED_PACKET =
  'Unverified packet. This frame failed the checks of its satellite’s format (checksum, length or plausible values), so nothing decoded from it is shown.';

interface TelemetryViewProps {
  /** Liquid template of the satellite; null or empty shows a plain field table */
  template: string | null | undefined;
  parsed: ParsedFrame | null | undefined;
  /** base64 frame, shown as hex when the template breaks */
  raw?: string;
  /** exposed to the template as `packet` */
  packet?: unknown;
  /** the frame failed its format's checks: `parsed` is only the satellite/tx-power envelope */
  unverified?: boolean;
}

function displayValue(value: unknown): string {
  if (value === null || value === undefined) return '–';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function FieldTable({ fields }: { fields: Record<string, unknown> }) {
  return (
    <Table size="small" aria-label="Telemetry fields">
      <TableBody>
        {Object.entries(fields).map(([key, value]) => (
          <TableRow key={key}>
            <TableCell component="th" scope="row">
              {key}
            </TableCell>
            <TableCell sx={{ wordBreak: 'break-word' }}>{displayValue(value)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** Decoded telemetry through the satellite's template; never a blank area. */
export function TelemetryView({ template, parsed, raw, packet, unverified }: TelemetryViewProps) {
  const result = useMemo(() => {
    if (!parsed || !template || unverified) return null;
    return renderTemplate(template, {
      packet: packet ?? { parsed },
      h: parsed.header ?? {},
      p: parsed.payload ?? {},
    });
  }, [template, parsed, packet, unverified]);

  if (unverified) return <Typography>{UNVERIFIED_PACKET}</Typography>;
  if (!parsed) return <Typography>{UNRECOGNIZED_PACKET}</Typography>;
  if (result?.ok) {
    return <Box className="telemetry" dangerouslySetInnerHTML={{ __html: result.html }} />;
  }
  const fallback = raw ? (
    <HexView raw={raw} />
  ) : (
    <FieldTable fields={{ ...(parsed.header ?? {}), ...(parsed.payload ?? {}) }} />
  );
  if (result && !result.ok) {
    console.warn('Telemetry template failed', result.error);
    return (
      <>
        <Alert severity="warning" sx={{ mb: 1 }}>
          {TEMPLATE_ERROR_TEXT}
        </Alert>
        {fallback}
      </>
    );
  }
  return <FieldTable fields={{ ...(parsed.header ?? {}), ...(parsed.payload ?? {}) }} />;
}
