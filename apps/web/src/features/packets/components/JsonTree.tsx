import Box from '@mui/material/Box';

type Json = unknown;

function Leaf({ value }: { value: Json }) {
  const color =
    typeof value === 'number'
      ? 'info.main'
      : typeof value === 'string'
        ? 'success.main'
        : 'text.secondary';
  return (
    <Box component="span" sx={{ color }}>
      {typeof value === 'string' ? JSON.stringify(value) : String(value)}
    </Box>
  );
}

function Node({ name, value, open }: { name: string; value: Json; open: boolean }) {
  if (value === null || typeof value !== 'object') {
    return (
      <div>
        <span>{name}: </span>
        <Leaf value={value} />
      </div>
    );
  }
  const entries = Array.isArray(value)
    ? value.map((v, i): [string, Json] => [String(i), v])
    : Object.entries(value);
  const summary = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
  return (
    <details open={open}>
      <summary>
        {name}{' '}
        <Box component="span" sx={{ color: 'text.secondary' }}>
          {summary}
        </Box>
      </summary>
      <Box sx={{ pl: 2, borderLeft: 1, borderColor: 'divider', ml: 0.5 }}>
        {entries.map(([key, child]) => (
          <Node key={key} name={key} value={child} open={false} />
        ))}
      </Box>
    </details>
  );
}

/** Collapsible tree of decoded JSON; native <details> so it works with the keyboard. */
export function JsonTree({ value, rootName = 'parsed' }: { value: Json; rootName?: string }) {
  return (
    <Box
      sx={{
        fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
        fontSize: '0.85rem',
        overflowX: 'auto',
        '& summary': { cursor: 'pointer' },
      }}
    >
      <Node name={rootName} value={value} open />
    </Box>
  );
}
