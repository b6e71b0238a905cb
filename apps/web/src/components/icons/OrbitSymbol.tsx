// The rotating-orbit symbol: a satellite circling a planet on a tilted orbit. It turns only for
// visitors who have not asked for reduced motion.
import Box from '@mui/material/Box';
import { keyframes } from '@mui/material/styles';
import { ICON_COLOURS, ORBIT_SHAPE, type IconTheme } from './iconShapes';

const turn = keyframes`
  from { transform: rotate(0deg); }
  to { transform: rotate(360deg); }
`;

export function OrbitSymbol({
  size = 40,
  theme = 'light',
  label,
}: {
  size?: number;
  theme?: IconTheme;
  /** accessible name; without one the symbol is decorative */
  label?: string;
}) {
  const { fill, outline } = ICON_COLOURS[theme];
  return (
    <Box
      component="svg"
      viewBox="0 0 24 24"
      width={size}
      height={size}
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      sx={{ overflow: 'visible' }}
    >
      <g transform="rotate(-25 12 12)">
        <path d={ORBIT_SHAPE.orbit} fill="none" stroke={outline} strokeWidth={1} />
        <path d={ORBIT_SHAPE.planet} fill={fill} stroke={outline} strokeWidth={1} />
        {/* The orbit is a circle squashed into an ellipse: so is the satellite's path on it. */}
        <g transform="translate(12 12) scale(1 0.4) translate(-12 -12)">
          <Box
            component="g"
            sx={{
              transformOrigin: '12px 12px',
              transformBox: 'view-box',
              animation: `${turn} 3s linear infinite`,
              '@media (prefers-reduced-motion: reduce)': { animation: 'none' },
            }}
          >
            <path d={ORBIT_SHAPE.satellite} fill={fill} stroke={outline} strokeWidth={1.5} />
          </Box>
        </g>
      </g>
    </Box>
  );
}
