import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { PRODUCT_NAME } from '../../config/site';

const TIMELINE: { when: string; what: string }[] = [
  {
    when: '2019',
    what: 'A ground-station firmware for ESP32 boards with a LoRa module is written so that radio amateurs can receive FossaSat-1, one of the first satellites to downlink with LoRa.',
  },
  {
    when: 'December 2019',
    what: 'FossaSat-1 is launched. Volunteers around the world set up stations, and the first shared map of stations and packets goes online.',
  },
  {
    when: '2020',
    what: `The firmware learns to follow many satellites and the project becomes ${PRODUCT_NAME}: stations connect over MQTT, a chat bot hands out credentials, and the server decodes every frame it receives.`,
  },
  {
    when: 'Auto-tune',
    what: 'Auto-tune arrives: the server retunes each station to the best satellite passing overhead, so a station left alone keeps receiving around the clock.',
  },
  {
    when: 'Open formats',
    what: 'Satellite teams publish their frame formats and telemetry pages, FSK satellites join the LoRa ones, and the packet archive becomes a research source for reception studies.',
  },
  {
    when: 'Today',
    what: 'Thousands of stations on every continent, an open archive of received telemetry, and a web console where owners configure, operate and create their stations.',
  },
];

export function HistoryPage() {
  return (
    <>
      <Typography variant="h1" component="h1" gutterBottom>
        History
      </Typography>
      <Typography paragraph>
        {PRODUCT_NAME} started with a simple question: could a board costing a few euros hear a
        satellite the size of a sandwich? The answer was yes, and the people who tried it shared
        what they received. That sharing is still the heart of the network: every station adds its
        packets to a common archive that anyone can browse.
      </Typography>
      <Typography paragraph>
        The network has grown from a handful of experimenters to a community of radio amateurs,
        students, schools and satellite teams. Satellite builders use it to track their missions
        right after launch, when every packet counts; station owners learn about radio, antennas and
        orbits along the way.
      </Typography>
      <Typography variant="h2" component="h2" sx={{ mt: 3, mb: 1 }}>
        Timeline
      </Typography>
      <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {TIMELINE.map((entry) => (
          <Box
            component="li"
            key={entry.when}
            sx={{ borderLeft: 3, borderColor: 'primary.main', pl: 2, pb: 2, position: 'relative' }}
          >
            <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
              {entry.when}
            </Typography>
            <Typography>{entry.what}</Typography>
          </Box>
        ))}
      </Box>
    </>
  );
}
