import Box from '@mui/material/Box';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { LEADERBOARD_BOARDS, type LeaderboardPeriod } from '@tinygs/contracts';
import { useSearchParams } from 'react-router';
import { LeaderboardTable } from './components/LeaderboardTable';

/** /leaderboards: the top stations and satellites, for the last 30 days (?period=all: all time). */
export default function LeaderboardsPage() {
  const [params, setParams] = useSearchParams();
  const period: LeaderboardPeriod = params.get('period') === 'all' ? 'all' : '30d';

  return (
    <>
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          flexWrap: 'wrap',
          gap: 1,
          mb: 2,
        }}
      >
        <Typography variant="h1" component="h1">
          Leaderboards
        </Typography>
        <ToggleButtonGroup
          exclusive
          size="small"
          aria-label="Period"
          value={period}
          onChange={(_e, v: LeaderboardPeriod | null) => {
            if (v) setParams(v === 'all' ? { period: 'all' } : {}, { replace: true });
          }}
        >
          <ToggleButton value="30d">Last 30 days</ToggleButton>
          <ToggleButton value="all">All time</ToggleButton>
        </ToggleButtonGroup>
      </Box>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' },
        }}
      >
        {LEADERBOARD_BOARDS.map((board) => (
          <LeaderboardTable key={board} board={board} period={period} />
        ))}
      </Box>
    </>
  );
}
