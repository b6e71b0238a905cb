import Typography from '@mui/material/Typography';
import Box from '@mui/material/Box';
import { PRODUCT_NAME } from '../../../config/site';

/** Intro for visitors without a stored user id, welcome-back otherwise (SPEC.md section 2). */
export function HomeIntro({ returning }: { returning: boolean }) {
  return (
    <Box component="section">
      <Typography variant="h1" component="h1" gutterBottom>
        {returning ? 'Welcome back!' : `Welcome to ${PRODUCT_NAME}`}
      </Typography>
      {returning ? (
        <Typography>
          Good to see you again. The map below shows your stations and everyone else&apos;s as they
          receive packets right now. Your console is one click away on the account icon.
        </Typography>
      ) : (
        <>
          <Typography paragraph>
            {PRODUCT_NAME} is an open network of small ground stations spread around the world,
            built and run by volunteers, that receive telemetry from satellites and high-altitude
            balloons using LoRa and FSK radios.
          </Typography>
          <Typography>
            Every packet a station hears is shared with everyone: follow the satellites live on the
            map, browse what they send, and build your own station for a few euros.
          </Typography>
        </>
      )}
    </Box>
  );
}
